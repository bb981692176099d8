import type { StoreBindings } from '../../store-client/bindings'
import type { Status } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import { combinedResource, isResourceRequest, type Attributes } from './attributes'
import { nodeAuthorize, nodeOwnPath, nodeRelated } from './node-authorizer'
import { resourceForbidden } from '../../admission/forbidden'
import { bootstrapPolicy, type Decision, type PolicyRule, type RbacPolicy } from './rbac'
import { rbacPolicy } from './rbac-snapshot'
import { mastersGroup, nodeOf } from '../authentication/user'
import { type UserInfo } from '../../apimachinery/user-info'
import { bootstrappersGroup } from '../../apimachinery/bootstrap-token'
import { credentialPathNode } from '../../agent-protocol/node-credential'

export type { Decision } from './rbac'

/**
 * kube-apiserver's authorizer chain for a user: the system:masters group is allowed everything
 * (with no reason, as upstream), then the Node authorizer for node credentials, then RBAC over
 * `policy` (the defaults alone when not given). `related` is the pods store's answer for a node's
 * request (see authorizeRequest).
 */
export function authorize(
  user: UserInfo,
  attrs: Attributes,
  policy: RbacPolicy = bootstrapPolicy(),
  related = false,
): Decision {
  const agent = isResourceRequest(attrs)
    ? undefined
    : agentPathDecision(user, attrs.verb, attrs.path)
  if (agent) return agent
  if (user.groups.includes(mastersGroup)) return { allowed: true, reason: '' }
  const node = nodeOf(user)
  const byNode = node === undefined ? undefined : nodeAuthorize(node, attrs, related)
  if (byNode?.allowed) return byNode
  const byRbac = policy.authorize(user, attrs)
  // As upstream's union authorizer, a refusal gives the reasons of every authorizer that had one.
  if (byRbac.allowed || !byNode?.reason) return byRbac
  return { allowed: false, reason: [byNode.reason, byRbac.reason].filter(Boolean).join(', ') }
}

/**
 * The agent paths, decided by who the caller is and never by RBAC. A node's tunnel carries every
 * stream of its pods (exec input included), and its heartbeat stream keeps it Ready: only that
 * node's own credential opens either, no group, system:masters included, stands in for it. A node
 * credential is issued (joining) only to a bootstrap token or an admin: a grant of non-resource
 * URLs never mints one.
 */
function agentPathDecision(user: UserInfo, verb: string, path: string): Decision | undefined {
  const own = nodeOwnPath(path)
  if (own !== undefined) {
    if (verb === 'get' && nodeOf(user) === own.node) return { allowed: true, reason: '' }
    return {
      allowed: false,
      reason: `only node "${own.node}"'s own credential may open its ${own.endpoint}`,
    }
  }
  if (credentialPathNode(path) === undefined) return undefined
  if (
    verb === 'post' &&
    (user.groups.includes(bootstrappersGroup) || user.groups.includes(mastersGroup))
  )
    return { allowed: true, reason: '' }
  return { allowed: false, reason: 'only a bootstrap token or an admin may join a node' }
}

/**
 * The chain over the cluster's current RBAC policy, with the store asked first whether a node's
 * request is about an object related to it; system:masters never waits for either.
 */
export async function authorizeRequest(
  env: StoreBindings,
  user: UserInfo,
  attrs: Attributes,
): Promise<Decision> {
  if (
    user.groups.includes(mastersGroup) &&
    (isResourceRequest(attrs) || nodeOwnPath(attrs.path) === undefined)
  )
    return { allowed: true, reason: '' }
  if (!isResourceRequest(attrs)) {
    const agent = agentPathDecision(user, attrs.verb, attrs.path)
    if (agent) return agent
  }
  const node = nodeOf(user)
  const related = node !== undefined && (await nodeRelated(env, node, attrs))
  return authorize(user, attrs, await rbacPolicy(env), related)
}

/**
 * The rules a user holds in a namespace, as SelfSubjectRulesReview lists them. As upstream, the
 * Node authorizer lists none: what a node may do depends on its pods (see access-review's `incomplete`).
 */
export function rulesFor(
  user: UserInfo,
  namespace = '',
  policy: RbacPolicy = bootstrapPolicy(),
): { resourceRules: PolicyRule[]; nonResourceRules: PolicyRule[] } {
  const rules: PolicyRule[] = []
  if (user.groups.includes(mastersGroup))
    rules.push(
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    )
  rules.push(...policy.rulesFor(user, namespace))
  return {
    resourceRules: rules.filter((r) => r.resources),
    nonResourceRules: rules.filter((r) => r.nonResourceURLs),
  }
}

/** The 403 for a refused request, worded as kube-apiserver's forbiddenMessage (plus the reason, if any). */
export function forbiddenStatus(user: UserInfo, attrs: Attributes, reason = ''): Status {
  const why = reason ? `: ${reason}` : ''
  if (!isResourceRequest(attrs))
    return failure(
      403,
      'Forbidden',
      `forbidden: User "${user.username}" cannot ${attrs.verb} path "${attrs.path}"${why}`,
    )
  const scope = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope'
  return resourceForbidden(
    attrs,
    attrs.name ?? '',
    `User "${user.username}" cannot ${attrs.verb} resource "${combinedResource(attrs)}" in API group "${attrs.group}" ${scope}${why}`,
  )
}
