import { builtinResources, groupVersions, storedResources } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { kindStruct, schemas } from '../../apis/schema'
import { customKindSchemas } from './openapi/custom'
import {
  groupVersionDocument,
  groupVersionPath,
  kindSchemas,
  type OpenAPIDocument,
} from './openapi/document'
import { hashText } from './openapi/hash'

interface Published {
  /** GET /openapi/v3 */
  index: { paths: Record<string, { serverRelativeURL: string }> }
  /** the document of each group/version, by its path (`api/v1`, `apis/apps/v1`) */
  documents: Map<string, OpenAPIDocument>
}

let builtin: Published | undefined
let custom: { from: readonly ResourceDef[]; published: Published } | undefined

/** Documents keyed by path, each listed in the index with the hash of its JSON. */
function publish(documents: Map<string, OpenAPIDocument>): Published {
  const index: Published['index'] = { paths: {} }
  for (const [path, doc] of documents)
    index.paths[path] = {
      serverRelativeURL: `/openapi/v3/${path}?hash=${hashText(JSON.stringify(doc))}`,
    }
  return { index, documents }
}

/**
 * The built-in documents are built on the first request and kept for the isolate's life: they
 * only change with the code, so each `hash` changes exactly when its document does, and kubectl,
 * which caches documents by URL, refetches only then. Building lazily keeps the schema generation
 * off the Worker's startup path.
 */
function builtinDocuments(): Published {
  if (builtin) return builtin
  // events.k8s.io/v1 (a view of the core Events) and autoscaling/v1 (of the v2 autoscalers) are
  // served by their own handlers but documented as any kind.
  const documented = [
    ...storedResources,
    ...builtinResources.filter(
      (d) => d.virtual && (d.group === 'events.k8s.io' || d.group === 'autoscaling'),
    ),
  ]
  const kinds = kindSchemas(documented, schemas, kindStruct)
  builtin = publish(
    new Map(
      groupVersions(documented).map((gv) => [
        groupVersionPath(gv),
        groupVersionDocument(gv, documented, schemas, kinds),
      ]),
    ),
  )
  return builtin
}

/** The documents of the custom resources, rebuilt when the set of CRDs read changes. */
function customDocuments(defs: readonly ResourceDef[]): Published {
  if (custom?.from === defs) return custom.published
  const { kinds, extra } = customKindSchemas(defs)
  const docs = new Map(
    groupVersions(defs).map((gv) => [
      groupVersionPath(gv),
      groupVersionDocument(gv, defs, schemas, kinds, extra),
    ]),
  )
  custom = { from: defs, published: publish(docs) }
  return custom.published
}

/** GET /openapi/v3: one entry per served group/version, custom ones included. */
export function openapiIndex(customDefs: readonly ResourceDef[]) {
  return {
    paths: { ...builtinDocuments().index.paths, ...customDocuments(customDefs).index.paths },
  }
}

/** GET /openapi/v3/{api/v1 | apis/g/v}: see ./openapi/document for what kubectl reads in it. */
export function openapiGroupVersion(
  customDefs: readonly ResourceDef[],
  path: string,
): OpenAPIDocument | undefined {
  return builtinDocuments().documents.get(path) ?? customDocuments(customDefs).documents.get(path)
}
