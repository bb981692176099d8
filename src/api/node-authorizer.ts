import type { Env } from '../env'
import type { KubeObject, Status } from '../apimachinery/types'
import { failure, qualifiedResource } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { storeFor } from '../client/stores'
import { readBody } from './body'
import { isResourceRequest, type Attributes, type ResourceAttributes } from './authorizer-attributes'
import { ruleAllows, type PolicyRule } from './rbac'

const read = ['get', 'list', 'watch']
const leaseNamespace = 'kube-node-lease'

/**
 * What the system:node ClusterRole grants (narrowed to what this server serves and an agent
 * needs); NodeRestriction below then limits the writes to the node's own objects.
 */
export const nodeRules: PolicyRule[] = [
  { apiGroups: [''], resources: ['nodes', 'pods', 'services', 'endpoints', 'configmaps', 'secrets', 'persistentvolumeclaims', 'persistentvolumes'], verbs: read },
  { apiGroups: [''], resources: ['nodes/status', 'pods/status'], verbs: ['get'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['create', 'update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'update', 'patch'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update', 'patch'] },
]

/** The tunnel a node agent dials out on; `name` is the node it serves. */
export function tunnelNodeName(path: string): string | undefined {
  const m = /^\/agent\/v1\/nodes\/([^/]+)\/tunnel$/.exec(path)
  if (!m) return undefined
  try {
    return decodeURIComponent(m[1]!)
  } catch {
    return undefined
  }
}

/** The Node authorizer: whether the node's rules (or its own tunnel) allow the request. */
export function nodeAllows(node: string, attrs: Attributes): boolean {
  if (!isResourceRequest(attrs)) return attrs.verb === 'get' && tunnelNodeName(attrs.path) === node
  return nodeRules.some((r) => ruleAllows(attrs, r))
}

/**
 * NodeRestriction admission, as kube-apiserver runs it for `system:node:<name>`: a node writes
 * only its own Node and Lease and the pods bound to it. Returns the 403 Status to answer with,
 * or undefined when the request may go on.
 */
export async function admitNode(req: Request, env: Env, node: string, attrs: ResourceAttributes): Promise<Status | undefined> {
  const { verb } = attrs
  const mutating = verb === 'create' || verb === 'update' || verb === 'patch' || verb === 'delete'
  if (attrs.group === '' && attrs.resource === 'nodes' && mutating) {
    const name = verb === 'create' ? await bodyName(req) : (attrs.name ?? '')
    if (name !== node) return forbidden(attrs, name, `node "${node}" is not allowed to modify node "${name}"`)
    return undefined
  }
  if (attrs.group === 'coordination.k8s.io' && attrs.resource === 'leases') {
    const name = verb === 'create' ? await bodyName(req) : (attrs.name ?? '')
    if (attrs.namespace !== leaseNamespace) return forbidden(attrs, name, `can only access leases in the "${leaseNamespace}" system namespace`)
    if (name !== node) return forbidden(attrs, name, 'can only access node lease with the same name as the requesting node')
    return undefined
  }
  if (attrs.group === '' && attrs.resource === 'pods' && attrs.name && (attrs.subresource === 'status' ? verb === 'update' || verb === 'patch' : verb === 'delete' && !attrs.subresource)) {
    const bound = await boundNode(env, attrs.namespace ?? '', attrs.name)
    // A missing pod is the handler's to report (404), as upstream answers NotFound here.
    if (bound === undefined || bound === node) return undefined
    const why = attrs.subresource === 'status' ? 'update pod status for pods' : 'delete pods'
    return forbidden(attrs, attrs.name, `node "${node}" can only ${why} with spec.nodeName set to itself`)
  }
  return undefined
}

/** spec.nodeName of a stored pod ('' when unbound), or undefined when there is no such pod. */
async function boundNode(env: Env, namespace: string, name: string): Promise<string | undefined> {
  const def = findResource('', 'v1', 'pods')!
  const res = await storeFor(env, def).get({ def, namespace, name })
  if (!res.ok) return undefined
  const pod = JSON.parse(res.value) as KubeObject & { spec?: { nodeName?: string } }
  return pod.spec?.nodeName ?? ''
}

/** metadata.name of a create body; a body the handler cannot decode either counts as nameless. */
async function bodyName(req: Request): Promise<string> {
  try {
    const body = (await readBody(req.clone())) as KubeObject
    const name = body?.metadata?.name
    return typeof name === 'string' ? name : ''
  } catch {
    return ''
  }
}

/** Forbidden: `<resource> "<name>" is forbidden: <why>` (`<resource> is forbidden: …` without a name). */
export function forbidden(attrs: ResourceAttributes, name: string, why: string): Status {
  const resource = qualifiedResource(attrs.group, attrs.resource)
  const subject = name ? `${resource} "${name}"` : resource
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, { name: name || undefined, group: attrs.group, kind: attrs.resource })
}
