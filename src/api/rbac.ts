import { combinedResource, isResourceRequest, type Attributes } from './authorizer-attributes'
import type { UserInfo } from './user'

/** One rule of an RBAC (Cluster)Role. */
export interface PolicyRule {
  verbs: string[]
  apiGroups?: string[]
  resources?: string[]
  resourceNames?: string[]
  nonResourceURLs?: string[]
}

/** Whether a rule grants the request, matched as RBAC's RuleAllows does: wildcards, `*` + `/<subresource>`, and URL prefixes ending in `*`. */
export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(attrs.verb)) return false
  if (!isResourceRequest(attrs)) {
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === attrs.path || (u.endsWith('*') && attrs.path.startsWith(u.slice(0, -1))))
  }
  const groups = rule.apiGroups ?? []
  if (!groups.includes('*') && !groups.includes(attrs.group)) return false
  const combined = combinedResource(attrs)
  const resourceMatches = (rule.resources ?? []).some((r) => r === '*' || r === combined || (!!attrs.subresource && r === `*/${attrs.subresource}`))
  if (!resourceMatches) return false
  const names = rule.resourceNames ?? []
  return names.length === 0 || names.includes(attrs.name ?? '')
}

interface ClusterRoleBinding {
  name: string
  /** the ClusterRole, named as the binding */
  rules: PolicyRule[]
  groups: string[]
  /** set for a RoleBinding (of a Role of the same name) that grants only in this namespace */
  namespace?: string
}

const healthURLs = ['/livez', '/readyz', '/healthz', '/version', '/version/']

/**
 * The ClusterRoleBindings a fresh cluster has for groups every user of this server is in (each
 * binds the ClusterRole of its own name), in name order: what a user with no bindings of its own
 * is allowed.
 */
const bootstrapBindings: ClusterRoleBinding[] = [
  {
    // As kubeadm lets everyone read kube-public/cluster-info: what this control plane publishes to
    // the nodes that join it (see src/agent-protocol/node-settings.ts).
    name: 'edgeplane:node-settings-reader',
    namespace: 'kube-public',
    rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['edgeplane-node-settings'] }],
    groups: ['system:authenticated'],
  },
  {
    name: 'system:basic-user',
    rules: [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ],
    groups: ['system:authenticated'],
  },
  {
    name: 'system:discovery',
    rules: [{ verbs: ['get'], nonResourceURLs: [...healthURLs, '/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*'] }],
    groups: ['system:authenticated'],
  },
  { name: 'system:public-info-viewer', rules: [{ verbs: ['get'], nonResourceURLs: healthURLs }], groups: ['system:authenticated', 'system:unauthenticated'] },
  {
    name: 'system:service-account-issuer-discovery',
    rules: [{ verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'] }],
    groups: ['system:serviceaccounts'],
  },
]

export interface Decision {
  allowed: boolean
  reason: string
}

/** The RBAC authorizer over the bootstrap bindings; allowed answers name the binding, as upstream. */
export function rbacAuthorize(user: UserInfo, attrs: Attributes): Decision {
  for (const b of bootstrapBindings) {
    const group = b.groups.find((g) => user.groups.includes(g))
    if (group === undefined || !b.rules.some((r) => ruleAllows(attrs, r))) continue
    if (b.namespace !== undefined && (!isResourceRequest(attrs) || attrs.namespace !== b.namespace)) continue
    const binding = b.namespace === undefined ? `ClusterRoleBinding "${b.name}" of ClusterRole` : `RoleBinding "${b.namespace}/${b.name}" of Role`
    return { allowed: true, reason: `RBAC: allowed by ${binding} "${b.name}" to Group "${group}"` }
  }
  return { allowed: false, reason: '' }
}

/** Every rule the cluster-wide bootstrap bindings grant a user. */
export function rbacRules(user: UserInfo): PolicyRule[] {
  return bootstrapBindings.filter((b) => b.namespace === undefined && b.groups.some((g) => user.groups.includes(g))).flatMap((b) => b.rules)
}
