import { isJsonObject } from '../apimachinery/json-value'
import { readBody } from './http/body'

/**
 * NodeRestriction for the local-path volumes a node may patch: a JSON merge patch that touches
 * only `metadata.finalizers` (with an optional `metadata.resourceVersion` precondition), which is
 * all the agent does when it has dealt with a volume's directory. Returns why to refuse, or undefined.
 */
export async function admitNodeVolumePatch(req: Request, node: string, name: string): Promise<string | undefined> {
  const why = `node "${node}" may only change the finalizers of persistentvolume "${name}"`
  if (!(req.headers.get('Content-Type') ?? '').startsWith('application/merge-patch+json')) return why
  let body: unknown
  try {
    body = await readBody(req)
  } catch {
    return why
  }
  if (!isJsonObject(body) || Object.keys(body).some((k) => k !== 'metadata')) return why
  const meta = body.metadata
  if (!isJsonObject(meta) || Object.keys(meta).some((k) => k !== 'finalizers' && k !== 'resourceVersion')) return why
  return undefined
}
