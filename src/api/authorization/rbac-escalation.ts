/**
 * RBAC's escalation check, as upstream's policy-based Role/ClusterRole/binding storage: a user
 * may write a role only with every permission in it (or `escalate` on it), and bind a role only
 * holding every permission in it (or `bind` on it). system:masters is never checked.
 */
import type { KubeObject, Status } from '../../apimachinery/types'
import { notFound } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/resource-def'
import { compactRule, uncovered } from '../../apis/rbac/covers'
import { isAggregated } from '../../apis/rbac/aggregate'
import { roleRefOf, rulesOf, type PolicyRule } from '../../apis/rbac/types'
import { resourceForbidden } from '../../admission/forbidden'
import { authorize } from './authorize'
import type { RbacPolicy } from './rbac'
import { mastersGroup } from '../authentication/user'
import type { UserInfo } from '../../apimachinery/user-info'

const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]

/** What one escalation check is given: the policy now, the writer, the object, and how to refuse it. */
interface Check {
  policy: RbacPolicy
  user: UserInfo
  def: ResourceDef
  obj: KubeObject
  name: string
  namespace: string
  refuse: (why: string) => Status
  allowedTo: (verb: string, resource: string, roleName: string) => boolean
}

/** A role: written only with every permission in it, or `escalate` on it; an aggregated ClusterRole only by a cluster admin. */
const roleCheck =
  (aggregates: boolean) =>
  ({ policy, user, def, obj, name, namespace, refuse, allowedTo }: Check): Status | undefined => {
    if (allowedTo('escalate', def.plural, name)) return undefined
    const denied = missingFrom(policy, user, namespace, rulesOf(obj))
    if (denied) return refuse(denied)
    if (aggregates && isAggregated(obj) && missingFrom(policy, user, namespace, fullAuthority))
      return refuse('must have cluster-admin privileges to use the aggregationRule')
    return undefined
  }

/** The resource of the role a roleRef names, by its kind. */
const roleResources = new Map([
  ['Role', 'roles'],
  ['ClusterRole', 'clusterroles'],
])

/** A binding: written only holding every permission of the role it binds, or `bind` on that role. */
function bindingCheck({
  policy,
  user,
  def,
  obj,
  name,
  namespace,
  refuse,
  allowedTo,
}: Check): Status | undefined {
  const ref = roleRefOf(obj)
  const roleResource = roleResources.get(ref.kind) ?? 'clusterroles'
  if (allowedTo('bind', roleResource, ref.name)) return undefined
  const roleRules = policy.roleRules(ref, namespace)
  if (!roleRules) return refuse(notFound(def.group, roleResource, ref.name).message ?? '')
  const denied = missingFrom(policy, user, namespace, roleRules)
  return denied ? refuse(denied) : undefined
}

/** The check of each RBAC resource. */
const checks = new Map<string, (check: Check) => Status | undefined>([
  ['roles', roleCheck(false)],
  ['clusterroles', roleCheck(true)],
  ['rolebindings', bindingCheck],
  ['clusterrolebindings', bindingCheck],
])

/** The 403 to answer a write of `obj` with, or undefined when the user may make it. */
export function escalationDenied(
  policy: RbacPolicy,
  user: UserInfo,
  def: ResourceDef,
  obj: KubeObject,
): Status | undefined {
  if (user.groups.includes(mastersGroup)) return undefined
  const name = obj.metadata.name ?? ''
  const namespace = def.namespaced ? (obj.metadata.namespace ?? '') : ''
  const target = { verb: 'create', group: def.group, resource: def.plural }
  const allowedTo = (verb: string, resource: string, roleName: string) =>
    authorize(
      user,
      { verb, group: def.group, resource, name: roleName, ...(namespace ? { namespace } : {}) },
      policy,
    ).allowed
  const check = checks.get(def.plural) ?? bindingCheck
  return check({
    policy,
    user,
    def,
    obj,
    name,
    namespace,
    refuse: (why) => resourceForbidden(target, name, why),
    allowedTo,
  })
}

/** ConfirmNoEscalation's message when the user lacks some of `rules`, else undefined. */
function missingFrom(
  policy: RbacPolicy,
  user: UserInfo,
  namespace: string,
  rules: PolicyRule[],
): string | undefined {
  const missing = uncovered(policy.rulesFor(user, namespace), rules)
  if (!missing.length) return undefined
  const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]`
  const lines = [...new Set(compact(missing).map(compactRule))].sort()
  return `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`
}

/** CompactRules: single-verb rules on the same resource merged into one rule with their verbs. */
function compact(rules: PolicyRule[]): PolicyRule[] {
  const byTarget = new Map<string, PolicyRule>()
  for (const r of rules) {
    const key = JSON.stringify([r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs])
    const existing = byTarget.get(key)
    if (existing)
      existing.verbs = [...existing.verbs, ...r.verbs.filter((v) => !existing.verbs.includes(v))]
    else byTarget.set(key, { ...r, verbs: [...r.verbs] })
  }
  return [...byTarget.values()]
}
