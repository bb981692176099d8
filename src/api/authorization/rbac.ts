/**
 * The RBAC authorizer, as upstream's plugin/pkg/auth/authorizer/rbac: a compiled view of every
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding, indexed by subject so a request looks at
 * the bindings of its own user and groups only.
 */
import type { KubeObject } from '../../apimachinery/types'
import { combinedResource, isResourceRequest, type Attributes } from './attributes'
import {
  roleRefOf,
  rulesOf,
  subjectsOf,
  type PolicyRule,
  type RoleRef,
  type Subject,
} from '../../apis/rbac/types'
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from '../../apis/rbac/bootstrap-policy'
import { aggregateRoles } from '../../apis/rbac/aggregate'
import type { UserInfo } from '../../apimachinery/user-info'

export type { PolicyRule } from '../../apis/rbac/types'

/** Whether a rule grants the request, matched as RBAC's RuleAllows does: wildcards, `*` + `/<subresource>`, and URL prefixes ending in `*`. */
export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(attrs.verb)) return false
  if (!isResourceRequest(attrs)) {
    return (rule.nonResourceURLs ?? []).some(
      (u) =>
        u === '*' || u === attrs.path || (u.endsWith('*') && attrs.path.startsWith(u.slice(0, -1))),
    )
  }
  const groups = rule.apiGroups ?? []
  if (!groups.includes('*') && !groups.includes(attrs.group)) return false
  const combined = combinedResource(attrs)
  const resourceMatches = (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (!!attrs.subresource && r === `*/${attrs.subresource}`),
  )
  if (!resourceMatches) return false
  const names = rule.resourceNames ?? []
  return names.length === 0 || names.includes(attrs.name ?? '')
}

export interface Decision {
  allowed: boolean
  reason: string
}

/** A binding with the subject that matched, as the authorizer walks them. */
interface CompiledBinding {
  kind: 'ClusterRoleBinding' | 'RoleBinding'
  name: string
  /** '' for a ClusterRoleBinding */
  namespace: string
  roleRef: RoleRef
  subject: Subject
}

export interface RbacObjects {
  roles: KubeObject[]
  clusterRoles: KubeObject[]
  roleBindings: KubeObject[]
  clusterRoleBindings: KubeObject[]
}

/** `system:serviceaccount:<ns>:<name>` */
const serviceAccountUsername = (namespace: string, name: string) =>
  `system:serviceaccount:${namespace}:${name}`

/** describeSubject: a service account is shown as `name/namespace`. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} "${s.name}/${s.namespace || bindingNamespace}"`
  return `${s.kind} "${s.name}"`
}

function describeBinding(b: CompiledBinding): string {
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name
  return `${b.kind} "${name}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${describeSubject(b.subject, b.namespace)}`
}

/** The compiled policy: rules by role, bindings by the user name or group they name. */
export class RbacPolicy {
  private readonly clusterRoles = new Map<string, PolicyRule[]>()
  private readonly roles = new Map<string, PolicyRule[]>()
  private readonly byUser = new Map<string, CompiledBinding[]>()
  private readonly byGroup = new Map<string, CompiledBinding[]>()

  constructor(objects: RbacObjects) {
    for (const r of objects.clusterRoles) this.clusterRoles.set(r.metadata.name ?? '', rulesOf(r))
    for (const r of objects.roles)
      this.roles.set(`${r.metadata.namespace}/${r.metadata.name}`, rulesOf(r))
    const add = (kind: CompiledBinding['kind'], b: KubeObject) => {
      const namespace = kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : ''
      const roleRef = roleRefOf(b)
      for (const subject of subjectsOf(b)) {
        const entry: CompiledBinding = {
          kind,
          name: b.metadata.name ?? '',
          namespace,
          roleRef,
          subject,
        }
        if (subject.kind === 'User') push(this.byUser, subject.name, entry)
        else if (subject.kind === 'Group') push(this.byGroup, subject.name, entry)
        else if (subject.kind === 'ServiceAccount') {
          const ns = subject.namespace || namespace
          if (ns) push(this.byUser, serviceAccountUsername(ns, subject.name), entry)
        }
      }
    }
    // ClusterRoleBindings first, as upstream visits them before the namespace's RoleBindings.
    for (const b of objects.clusterRoleBindings) add('ClusterRoleBinding', b)
    for (const b of objects.roleBindings) add('RoleBinding', b)
  }

  /** The bindings that apply to a user in a namespace ('' for cluster-scoped requests), ClusterRoleBindings first. */
  private bindingsFor(user: UserInfo, namespace: string): CompiledBinding[] {
    const lists = [this.byUser.get(user.username), ...user.groups.map((g) => this.byGroup.get(g))]
    const cluster: CompiledBinding[] = []
    const local: CompiledBinding[] = []
    for (const list of lists) {
      for (const b of list ?? []) {
        if (b.kind === 'ClusterRoleBinding') cluster.push(b)
        else if (namespace !== '' && b.namespace === namespace) local.push(b)
      }
    }
    return local.length ? [...cluster, ...local] : cluster
  }

  /** The rules a role reference resolves to, undefined when the role does not exist. */
  roleRules(ref: RoleRef, namespace: string): PolicyRule[] | undefined {
    if (ref.kind === 'ClusterRole') return this.clusterRoles.get(ref.name)
    if (ref.kind === 'Role') return this.roles.get(`${namespace}/${ref.name}`)
    return undefined
  }

  authorize(user: UserInfo, attrs: Attributes): Decision {
    const namespace = isResourceRequest(attrs) ? (attrs.namespace ?? '') : ''
    for (const b of this.bindingsFor(user, namespace)) {
      const rules = this.roleRules(b.roleRef, b.namespace)
      if (rules?.some((r) => ruleAllows(attrs, r)))
        return { allowed: true, reason: `RBAC: allowed by ${describeBinding(b)}` }
    }
    return { allowed: false, reason: '' }
  }

  /** Every rule the user holds in a namespace ('' for the cluster scope only), as RulesFor. */
  rulesFor(user: UserInfo, namespace: string): PolicyRule[] {
    return this.bindingsFor(user, namespace).flatMap(
      (b) => this.roleRules(b.roleRef, b.namespace) ?? [],
    )
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

let defaults: RbacPolicy | undefined

/** The policy of a cluster holding nothing but the default roles and bindings (aggregated); built on first use. */
export function bootstrapPolicy(): RbacPolicy {
  defaults ??= new RbacPolicy({
    roles: bootstrapRoles,
    roleBindings: bootstrapRoleBindings,
    clusterRoles: aggregateRoles(bootstrapClusterRoles),
    clusterRoleBindings: bootstrapClusterRoleBindings,
  })
  return defaults
}
