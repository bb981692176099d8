import { agentPathNode } from '../../agent-protocol/node-credential'
import type { AdmissionBindings } from '../../admission/bindings'
import type { StoreBindings } from '../../store-client/bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { failure, qualifiedResource } from '../../apimachinery/status'
import { readBody } from '../http/body'
import { isResourceRequest, type Attributes, type ResourceAttributes } from './attributes'
import { ruleAllows, type Decision } from './rbac'
import { nodeRules } from '../../apis/rbac/node-rules'
import { authorizeNodeScoped, boundNode, isRelated, relationOf } from './node-graph'
import { admitNodeEvent } from '../node-admission'
import { admitNodeVolumePatch } from '../node-volume-admission'

const leaseNamespace = 'kube-node-lease'

/** The tunnel a node agent dials out on; `name` is the node it serves. */
export const tunnelNodeName = (path: string): string | undefined => agentPathNode(path, 'tunnel')

/**
 * The Node authorizer: its own tunnel; secrets, configmaps, claims, pods and nodes as far as the
 * node's pods relate to them (node-graph.ts; `related` is the pods store's answer to
 * `relationOf`); everything else by the static rules. A refusal carries upstream's reason, if any.
 */
export function nodeAuthorize(node: string, attrs: Attributes, related = false): Decision {
  if (!isResourceRequest(attrs)) return { allowed: attrs.verb === 'get' && tunnelNodeName(attrs.path) === node, reason: '' }
  const scoped = authorizeNodeScoped(node, attrs, related)
  if (scoped) return scoped
  return { allowed: nodeRules.some((r) => ruleAllows(attrs, r)), reason: '' }
}

/** Whether what the node asks for is related to it, when that decides the request (one store lookup). */
export async function nodeRelated(env: StoreBindings, node: string, attrs: Attributes): Promise<boolean> {
  const relation = isResourceRequest(attrs) ? relationOf(node, attrs) : undefined
  return relation ? isRelated(env, node, relation) : false
}

type NodeAdmission = (req: Request, env: AdmissionBindings, node: string, attrs: ResourceAttributes) => Promise<Status | undefined>

const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete'])

/** A node writes only its own Node. */
const admitNodeWrite: NodeAdmission = async (req, _env, node, attrs) => {
  if (!mutatingVerbs.has(attrs.verb)) return undefined
  const name = attrs.verb === 'create' ? await bodyName(req) : (attrs.name ?? '')
  return name === node ? undefined : forbidden(attrs, name, `node "${node}" is not allowed to modify node "${name}"`)
}

/** A node uses only its own Lease, in the node lease namespace. */
const admitLease: NodeAdmission = async (req, _env, node, attrs) => {
  const name = attrs.verb === 'create' ? await bodyName(req) : (attrs.name ?? '')
  if (attrs.namespace !== leaseNamespace) return forbidden(attrs, name, `can only access leases in the "${leaseNamespace}" system namespace`)
  if (name !== node) return forbidden(attrs, name, 'can only access node lease with the same name as the requesting node')
  return undefined
}

/** The pod writes checked, by subresource ('' for the pod itself): their verbs, and what a node may do. */
const podWrites = new Map<string, { verbs: readonly string[]; may: string }>([
  ['', { verbs: ['delete'], may: 'delete pods' }],
  ['status', { verbs: ['update', 'patch'], may: 'update pod status for pods' }],
])

/** A node deletes, and writes the status of, only the pods bound to it. */
const admitPodWrite: NodeAdmission = async (_req, env, node, attrs) => {
  const checked = podWrites.get(attrs.subresource ?? '')
  if (!attrs.name || !checked?.verbs.includes(attrs.verb)) return undefined
  const bound = await boundNode(env, attrs.namespace ?? '', attrs.name)
  // A missing pod is the handler's to report (404), as upstream answers NotFound here.
  if (bound === undefined || bound === node) return undefined
  return forbidden(attrs, attrs.name, `node "${node}" can only ${checked.may} with spec.nodeName set to itself`)
}

const admitVolumePatch: NodeAdmission = async (req, _env, node, attrs) => {
  if (attrs.verb !== 'patch' || !attrs.name) return undefined
  const refused = await admitNodeVolumePatch(req, node, attrs.name)
  return refused ? forbidden(attrs, attrs.name, refused) : undefined
}

const admitEvent: NodeAdmission = async (req, env, node, attrs) => {
  if (attrs.subresource) return undefined
  const refused = await admitNodeEvent(req, env, node, attrs)
  return refused ? forbidden(attrs, refused.name, refused.why) : undefined
}

/** NodeRestriction's checks by group and resource, as upstream's plugin dispatches by resource. */
const nodeAdmissions = new Map<string, NodeAdmission>([
  [qualifiedResource('', 'nodes'), admitNodeWrite],
  [qualifiedResource('coordination.k8s.io', 'leases'), admitLease],
  [qualifiedResource('', 'pods'), admitPodWrite],
  [qualifiedResource('', 'persistentvolumes'), admitVolumePatch],
  [qualifiedResource('', 'events'), admitEvent],
])

/**
 * NodeRestriction admission, as kube-apiserver runs it for `system:node:<name>`: a node writes
 * only its own Node and Lease and the pods bound to it. Returns the 403 Status to answer with,
 * or undefined when the request may go on.
 */
export function admitNode(req: Request, env: AdmissionBindings, node: string, attrs: ResourceAttributes): Promise<Status | undefined> {
  return nodeAdmissions.get(qualifiedResource(attrs.group, attrs.resource))?.(req, env, node, attrs) ?? Promise.resolve(undefined)
}

/** metadata.name of a create body; a body the handler cannot decode either counts as nameless. */
async function bodyName(req: Request): Promise<string> {
  try {
    const body = (await readBody(req)) as KubeObject
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
