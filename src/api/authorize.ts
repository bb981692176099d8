import type { Status } from '../apimachinery/types'
import { failure } from '../apimachinery/status'
import { combinedResource, isResourceRequest, type Attributes } from './authorizer-attributes'
import type { Env } from '../env'
import { forbidden, nodeAuthorize, nodeRelated } from './node-authorizer'
import { rbacAuthorize, rbacRules, type Decision, type PolicyRule } from './rbac'
import { mastersGroup, nodeOf, type UserInfo } from './user'

export type { Decision } from './rbac'

/**
 * kube-apiserver's authorizer chain for a user: the system:masters group is allowed everything
 * (with no reason, as upstream), then the Node authorizer for node credentials, then RBAC.
 * `nodeRelated` is the pods store's answer for a node's request (see authorizeRequest).
 */
export function authorize(user: UserInfo, attrs: Attributes, nodeRelated = false): Decision {
  if (user.groups.includes(mastersGroup)) return { allowed: true, reason: '' }
  const node = nodeOf(user)
  const byNode = node === undefined ? undefined : nodeAuthorize(node, attrs, nodeRelated)
  if (byNode?.allowed) return byNode
  const byRbac = rbacAuthorize(user, attrs)
  // As upstream's union authorizer, a refusal gives the reasons of every authorizer that had one.
  if (byRbac.allowed || !byNode?.reason) return byRbac
  return { allowed: false, reason: [byNode.reason, byRbac.reason].filter(Boolean).join(', ') }
}

/** `authorize`, with the store asked first whether a node's request is about an object related to it. */
export async function authorizeRequest(env: Env, user: UserInfo, attrs: Attributes): Promise<Decision> {
  const node = nodeOf(user)
  return authorize(user, attrs, node !== undefined && (await nodeRelated(env, node, attrs)))
}

/**
 * The rules a user holds, as SelfSubjectRulesReview lists them. As upstream, the Node authorizer
 * lists none: what a node may do depends on its pods (see access-review's `incomplete`).
 */
export function rulesFor(user: UserInfo): { resourceRules: PolicyRule[]; nonResourceRules: PolicyRule[] } {
  const rules: PolicyRule[] = []
  if (user.groups.includes(mastersGroup)) rules.push({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] })
  rules.push(...rbacRules(user))
  return { resourceRules: rules.filter((r) => r.resources), nonResourceRules: rules.filter((r) => r.nonResourceURLs) }
}

/** The 403 for a refused request, worded as kube-apiserver's forbiddenMessage (plus the reason, if any). */
export function forbiddenStatus(user: UserInfo, attrs: Attributes, reason = ''): Status {
  const why = reason ? `: ${reason}` : ''
  if (!isResourceRequest(attrs)) return failure(403, 'Forbidden', `forbidden: User "${user.username}" cannot ${attrs.verb} path "${attrs.path}"${why}`)
  const scope = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope'
  return forbidden(attrs, attrs.name ?? '', `User "${user.username}" cannot ${attrs.verb} resource "${combinedResource(attrs)}" in API group "${attrs.group}" ${scope}${why}`)
}
