import type { AdmissionBindings } from '../admission/bindings'
import type { KubeObject } from '../apimachinery/types'
import { isJsonObject } from '../apimachinery/json-value'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { eventSubject, type NodeWriter } from '../apis/node-restriction'
import { readBody } from './http/body'
import type { ResourceAttributes } from './authorization/attributes'
import { boundNode } from './authorization/node-graph'
import { nodeOf, requestUser } from './authentication/user'
import { perRequest } from './http/request-state'

const writers = perRequest<NodeWriter>()

/**
 * What the store must check of a write a node makes (NodeRestriction on the object as stored):
 * undefined for any other user.
 */
export function nodeWriterOf(req: Request): NodeWriter | undefined {
  const recorded = writers.get(req)
  if (recorded) return recorded
  const node = nodeOf(requestUser(req))
  return node === undefined ? undefined : { node }
}

/**
 * Events a node writes must be about itself (`involvedObject` its own Node) or a pod bound to
 * it: the involvedObject of a created or replacing event, or of the stored one for a patch, is
 * checked here; the store checks that the event as written is still about that object.
 * Returns the reason to refuse with, or undefined (recording the subject for the store).
 */
export async function admitNodeEvent(req: Request, env: AdmissionBindings, node: string, attrs: ResourceAttributes): Promise<{ name: string; why: string } | undefined> {
  const { verb } = attrs
  if (verb !== 'create' && verb !== 'update' && verb !== 'patch') return undefined
  let event: KubeObject | undefined
  if (verb === 'patch') {
    const def = findResource('', 'v1', 'events')!
    const res = await storeFor(env, def).get({ def, namespace: attrs.namespace, name: attrs.name ?? '' })
    // A missing event is the handler's to report (404); an apply that would create one is refused by the store.
    if (!res.ok) return undefined
    event = JSON.parse(res.value) as KubeObject
  } else {
    event = await body(req)
    // A body that does not decode is the handler's to refuse (400); the store refuses any write without a checked subject.
    if (!event) return undefined
  }
  const name = attrs.name ?? (typeof event.metadata?.name === 'string' ? event.metadata.name : '')
  const subject = eventSubject(event)
  if (!(await isOwnSubject(env, node, subject))) return { name, why: `node "${node}" can only ${verb === 'create' ? 'create' : 'update'} events about itself or pods bound to it` }
  writers.set(req, { node, eventSubject: subject })
  return undefined
}

/** The kinds of object a node's event may be about, and whether one is the node's own: by the event's involvedObject.kind. */
const ownSubjects = new Map<string, (env: AdmissionBindings, node: string, namespace: string, name: string) => Promise<boolean>>([
  // The node itself.
  ['Node', async (_env, node, namespace, name) => namespace === '' && name === node],
  // A pod bound to it.
  ['Pod', async (env, node, namespace, name) => !!namespace && !!name && (await boundNode(env, namespace, name)) === node],
])

async function isOwnSubject(env: AdmissionBindings, node: string, subject: string): Promise<boolean> {
  const [kind, namespace, name] = subject.split('/') as [string, string, string]
  const own = ownSubjects.get(kind)
  return own ? own(env, node, namespace, name) : false
}

async function body(req: Request): Promise<KubeObject | undefined> {
  try {
    const parsed = await readBody(req)
    return isJsonObject(parsed) ? (parsed as KubeObject) : undefined
  } catch {
    return undefined
  }
}
