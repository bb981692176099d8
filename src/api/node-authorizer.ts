import type { Env } from '../env'
import type { KubeObject, Status } from '../apimachinery/types'
import { failure, qualifiedResource } from '../apimachinery/status'
import { nodeUser } from '../apimachinery/node-token'
import { findResource } from '../apis/registry'
import { storeFor } from '../client/stores'
import { readBody } from './body'
import { parseResourcePath, type RequestInfo } from './request-info'

/** The request as kube-apiserver's authorizers see it. */
export interface Attributes {
  verb: string
  /** resource requests only */
  info?: RequestInfo
  path: string
}

interface Rule {
  group: string
  resources: string[]
  verbs: string[]
}

const read = ['get', 'list', 'watch']
const leaseNamespace = 'kube-node-lease'

/**
 * What the system:node ClusterRole grants (narrowed to what this server serves and an agent
 * needs); NodeRestriction below then limits the writes to the node's own objects.
 */
const nodeRules: Rule[] = [
  { group: '', resources: ['nodes', 'pods', 'services', 'endpoints', 'configmaps', 'secrets'], verbs: read },
  { group: '', resources: ['nodes/status', 'pods/status'], verbs: ['get'] },
  { group: '', resources: ['nodes'], verbs: ['create', 'update', 'patch'] },
  { group: '', resources: ['nodes/status'], verbs: ['update', 'patch'] },
  { group: '', resources: ['pods/status'], verbs: ['update', 'patch'] },
  { group: '', resources: ['pods'], verbs: ['delete'] },
  { group: '', resources: ['events'], verbs: ['create', 'update', 'patch'] },
  { group: 'coordination.k8s.io', resources: ['leases'], verbs: ['get', 'create', 'update', 'patch'] },
]

/** Paths every authenticated user may read (system:discovery and system:public-info-viewer). */
function isDiscoveryPath(path: string): boolean {
  if (['/api', '/api/v1', '/apis', '/version', '/healthz', '/readyz', '/livez', '/openapi/v2', '/openapi/v3'].includes(path)) return true
  if (path.startsWith('/openapi/v3/')) return true
  return /^\/apis\/[^/]+(\/[^/]+)?$/.test(path)
}

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

/** kube-apiserver's RequestInfo verb for a request. */
export function attributesOf(req: Request): Attributes {
  const url = new URL(req.url)
  const path = url.pathname
  const method = req.method.toUpperCase()
  let info: RequestInfo | undefined
  if (path.startsWith('/api/v1/')) info = parseResourcePath('', 'v1', path.slice('/api/v1/'.length))
  else {
    const m = /^\/apis\/([^/]+)\/([^/]+)\/(.+)$/.exec(path)
    if (m) info = parseResourcePath(m[1]!, m[2]!, m[3]!)
  }
  if (!info) return { verb: method === 'GET' || method === 'HEAD' ? 'get' : method.toLowerCase(), path }
  const watch = url.searchParams.get('watch')
  let verb: string
  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = info.name ? 'get' : watch === 'true' || watch === '1' ? 'watch' : 'list'
      break
    case 'POST':
      verb = 'create'
      break
    case 'PUT':
      verb = 'update'
      break
    case 'PATCH':
      verb = 'patch'
      break
    case 'DELETE':
      verb = info.name ? 'delete' : 'deletecollection'
      break
    default:
      verb = method.toLowerCase()
  }
  return { verb, info, path }
}

/**
 * Authorizes a request made with a node's credentials: the Node authorizer plus NodeRestriction
 * admission, as kube-apiserver runs them for `system:node:<name>`. Returns the 403 Status to
 * answer with, or undefined when the request may go on.
 */
export async function authorizeNode(req: Request, env: Env, node: string): Promise<Status | undefined> {
  const attrs = attributesOf(req)
  const { info, verb, path } = attrs
  if (!info) {
    const tunnel = tunnelNodeName(path)
    if (tunnel !== undefined && tunnel === node && verb === 'get') return undefined
    if (verb === 'get' && isDiscoveryPath(path)) return undefined
    return forbiddenByRbac(node, attrs)
  }
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource
  const granted = nodeRules.some((r) => r.group === info.group && r.resources.includes(resource) && r.verbs.includes(verb))
  if (!granted) return forbiddenByRbac(node, attrs)
  return nodeRestriction(req, env, node, verb, info)
}

/** NodeRestriction admission: a node writes only its own Node and Lease and the pods bound to it. */
async function nodeRestriction(req: Request, env: Env, node: string, verb: string, info: RequestInfo): Promise<Status | undefined> {
  const mutating = verb === 'create' || verb === 'update' || verb === 'patch' || verb === 'delete'
  if (info.group === '' && info.resource === 'nodes' && mutating) {
    const name = verb === 'create' ? await bodyName(req) : (info.name ?? '')
    if (name !== node) return forbidden(info, name, `node "${node}" is not allowed to modify node "${name}"`)
    return undefined
  }
  if (info.group === 'coordination.k8s.io' && info.resource === 'leases') {
    const name = verb === 'create' ? await bodyName(req) : (info.name ?? '')
    if (info.namespace !== leaseNamespace) return forbidden(info, name, `can only access leases in the "${leaseNamespace}" system namespace`)
    if (name !== node) return forbidden(info, name, 'can only access node lease with the same name as the requesting node')
    return undefined
  }
  if (info.group === '' && info.resource === 'pods' && info.name && (info.subresource === 'status' ? verb === 'update' || verb === 'patch' : verb === 'delete' && !info.subresource)) {
    const bound = await boundNode(env, info.namespace ?? '', info.name)
    // A missing pod is the handler's to report (404), as upstream answers NotFound here.
    if (bound === undefined || bound === node) return undefined
    const why = info.subresource === 'status' ? 'update pod status for pods' : 'delete pods'
    return forbidden(info, info.name, `node "${node}" can only ${why} with spec.nodeName set to itself`)
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

/** Forbidden from admission: `<resource> "<name>" is forbidden: <why>`. */
function forbidden(info: RequestInfo, name: string, why: string): Status {
  const resource = qualifiedResource(info.group, info.resource)
  const subject = name ? `${resource} "${name}"` : resource
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, { name: name || undefined, group: info.group, kind: info.resource })
}

/** Forbidden from authorization, worded as kube-apiserver's forbiddenMessage. */
export function forbiddenByRbac(node: string, attrs: Attributes): Status {
  const user = nodeUser(node)
  const { info, verb } = attrs
  if (!info) return failure(403, 'Forbidden', `forbidden: User "${user}" cannot ${verb} path "${attrs.path}"`)
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource
  const scope = info.namespace ? `in the namespace "${info.namespace}"` : 'at the cluster scope'
  return forbidden(info, info.name ?? '', `User "${user}" cannot ${verb} resource "${resource}" in API group "${info.group}" ${scope}`)
}
