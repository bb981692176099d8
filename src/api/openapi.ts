import { builtinResources, groupVersions } from '../apis/registry'
import { kindStruct, schemas } from '../apis/schema'
import { groupVersionDocument, groupVersionPath, kindSchemas, type OpenAPIDocument } from './openapi/document'
import { hashText } from './openapi/hash'

interface Published {
  /** GET /openapi/v3 */
  index: { paths: Record<string, { serverRelativeURL: string }> }
  /** the document of each group/version, by its path (`api/v1`, `apis/apps/v1`) */
  documents: Map<string, OpenAPIDocument>
}

let published: Published | undefined

/**
 * Built on the first request and kept for the isolate's life: the documents only change with the
 * code, so each `hash` (of the document's JSON) changes exactly when its document does, and
 * kubectl, which caches documents by URL, refetches only then. Building lazily keeps the schema
 * generation off the Worker's startup path.
 */
function publish(): Published {
  if (published) return published
  const kinds = kindSchemas(builtinResources, schemas, kindStruct)
  const index: Published['index'] = { paths: {} }
  const documents = new Map<string, OpenAPIDocument>()
  for (const gv of groupVersions()) {
    const path = groupVersionPath(gv)
    const doc = groupVersionDocument(gv, builtinResources, schemas, kinds)
    documents.set(path, doc)
    index.paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashText(JSON.stringify(doc))}` }
  }
  published = { index, documents }
  return published
}

/** GET /openapi/v3: one entry per served group/version. */
export function openapiIndex() {
  return publish().index
}

/** GET /openapi/v3/{api/v1 | apis/g/v}: see ./openapi/document for what kubectl reads in it. */
export function openapiGroupVersion(path: string): OpenAPIDocument | undefined {
  return publish().documents.get(path)
}
