import { LabelSelector, ObjectMeta } from './meta'
import { list, msg, str, strs, type Table } from './schema'

/** rbac.authorization.k8s.io/v1: `kubectl create role|clusterrole|rolebinding|clusterrolebinding`. */

const PolicyRule: Table = {
  1: strs('verbs'),
  2: strs('apiGroups'),
  3: strs('resources'),
  4: strs('resourceNames'),
  5: strs('nonResourceURLs'),
}

const Subject: Table = {
  1: str('kind', { keep: true }),
  2: str('apiGroup'),
  3: str('name', { keep: true }),
  4: str('namespace'),
}

const RoleRef: Table = {
  1: str('apiGroup', { keep: true }),
  2: str('kind', { keep: true }),
  3: str('name', { keep: true }),
}

export const Role: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: list('rules', () => PolicyRule),
}

export const ClusterRole: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: list('rules', () => PolicyRule),
  3: msg('aggregationRule', () => ({ 1: list('clusterRoleSelectors', () => LabelSelector) })),
}

export const RoleBinding: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: list('subjects', () => Subject),
  3: msg('roleRef', () => RoleRef),
}

export const ClusterRoleBinding: Table = RoleBinding
