import type { ResourceDef } from '../resource-def'

export const rbacGroup = 'rbac.authorization.k8s.io'

/** The RBAC kinds and the create-only review kinds, in discovery order. */
export const accessResources: ResourceDef[] = [
  rbac('Role', true),
  rbac('RoleBinding', true),
  rbac('ClusterRole', false),
  rbac('ClusterRoleBinding', false),
  review('authentication.k8s.io', 'SelfSubjectReview'),
  review('authorization.k8s.io', 'SelfSubjectAccessReview'),
  review('authorization.k8s.io', 'SelfSubjectRulesReview'),
  review('authorization.k8s.io', 'SubjectAccessReview'),
  review('authorization.k8s.io', 'LocalSubjectAccessReview', true),
]

/** An rbac.authorization.k8s.io/v1 kind. */
function rbac(kind: string, namespaced: boolean): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group: rbacGroup,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced,
    subresources: [],
  }
}

/** A create-only review kind (`kubectl auth whoami|can-i`), answered from the request alone. */
function review(group: string, kind: string, namespaced = false): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced,
    subresources: [],
    verbs: ['create'],
    virtual: true,
  }
}
