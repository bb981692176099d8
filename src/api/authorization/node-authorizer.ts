import { agentPathNode } from '../../agent-protocol/node-credential'
import type { StoreBindings } from '../../store-client/bindings'
import type { ApiBindings } from '../bindings'
import type { Status } from '../../apimachinery/types'
import { qualifiedResource } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import type { NodeWriter } from '../../apis/node-restriction'
import { nodeRules } from '../../apis/rbac/node-rules'
import { resourceForbidden } from '../../admission/forbidden'
import { admitNodeWrite, leaseRefusal, restrictsNodeWrites } from '../../admission/node-restriction'
import { admissionAttributesOf } from '../http/admission-attributes'
import { parsedOf } from '../http/request-info'
import { perRequest } from '../http/request-state'
import { nodeOf, requestUser } from '../authentication/user'
import { isResourceRequest, type Attributes, type ResourceAttributes } from './attributes'
import { ruleAllows, type Decision } from './rbac'
import { authorizeNodeScoped, boundNode, isRelated, relationOf } from './node-graph'

/** The node whose own endpoint (its tunnel, its heartbeat stream) the path is, and which one. */
export function nodeOwnPath(
  path: string,
): { node: string; endpoint: 'tunnel' | 'heartbeat' } | undefined {
  for (const endpoint of ['tunnel', 'heartbeat'] as const) {
    const node = agentPathNode(path, endpoint)
    if (node !== undefined) return { node, endpoint }
  }
  return undefined
}

/**
 * The Node authorizer: its own tunnel; secrets, configmaps, claims, pods and nodes as far as the
 * node's pods relate to them (node-graph.ts; `related` is the pods store's answer to
 * `relationOf`); everything else by the static rules. A refusal carries upstream's reason, if any.
 */
export function nodeAuthorize(node: string, attrs: Attributes, related = false): Decision {
  if (!isResourceRequest(attrs))
    return { allowed: attrs.verb === 'get' && nodeOwnPath(attrs.path)?.node === node, reason: '' }
  const scoped = authorizeNodeScoped(node, attrs, related)
  if (scoped) return scoped
  return { allowed: nodeRules.some((r) => ruleAllows(attrs, r)), reason: '' }
}

/** Whether what the node asks for is related to it, when that decides the request (one store lookup). */
export async function nodeRelated(
  env: StoreBindings,
  node: string,
  attrs: Attributes,
): Promise<boolean> {
  const relation = isResourceRequest(attrs) ? relationOf(node, attrs) : undefined
  return relation ? isRelated(env, node, relation) : false
}

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
 * NodeRestriction admission, as kube-apiserver runs it for `system:node:<name>`, on the write's
 * admission attributes (../../admission/node-restriction.ts); and a node reads only its own Lease.
 * Returns the 403 Status to answer with, or undefined when the request may go on (what the store
 * must still check of the write recorded for nodeWriterOf).
 */
export async function admitNode(
  req: Request,
  env: ApiBindings,
  node: string,
  attrs: ResourceAttributes,
): Promise<Status | undefined> {
  if (!restrictsNodeWrites(attrs)) return undefined
  const { info } = parsedOf(req)
  const namespaced =
    findResource(attrs.group, attrs.version ?? '', attrs.resource)?.namespaced ??
    info?.namespace !== undefined
  const admission = info && (await admissionAttributesOf(req, info, namespaced))
  if (!admission) return leaseReadRefusal(node, attrs)
  const decided = await admitNodeWrite(env, node, admission, {
    boundNode: (namespace, name) => boundNode(env, namespace, name),
  })
  if ('refused' in decided) return decided.refused
  writers.set(req, decided.writer)
  return undefined
}

const leases = qualifiedResource('coordination.k8s.io', 'leases')

/** A node reads only its own Lease, in the node lease namespace, as it writes only that one. */
function leaseReadRefusal(node: string, attrs: ResourceAttributes): Status | undefined {
  if (qualifiedResource(attrs.group, attrs.resource) !== leases) return undefined
  const name = attrs.name ?? ''
  const why = leaseRefusal(node, attrs.namespace, name)
  return why ? resourceForbidden(attrs, name, why) : undefined
}
