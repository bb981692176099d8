import type { KubeObject } from '../../apimachinery/types'
import type { MetaLabelSelector } from '../../apimachinery/labels'

export { rbacGroup } from '../resource-table/access'

/** One rule of an RBAC (Cluster)Role. */
export interface PolicyRule {
  verbs: string[]
  apiGroups?: string[]
  resources?: string[]
  resourceNames?: string[]
  nonResourceURLs?: string[]
}

export interface Subject {
  kind: string
  apiGroup?: string
  name: string
  namespace?: string
}

export interface RoleRef {
  apiGroup: string
  kind: string
  name: string
}

export interface RoleObject extends KubeObject {
  rules?: PolicyRule[] | null
  aggregationRule?: { clusterRoleSelectors?: MetaLabelSelector[] | null } | null
}

export interface BindingObject extends KubeObject {
  subjects?: Subject[] | null
  roleRef: RoleRef
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []

/** A rule read from a stored or submitted object, every list an array of strings (absent ones left out). */
export function readRule(raw: unknown): PolicyRule {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const rule: PolicyRule = { verbs: strings(r.verbs) }
  for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) {
    if (Array.isArray(r[k])) rule[k] = strings(r[k])
  }
  return rule
}

export function rulesOf(role: KubeObject | undefined): PolicyRule[] {
  const rules = (role as RoleObject | undefined)?.rules
  return Array.isArray(rules) ? rules.map(readRule) : []
}

export function subjectsOf(binding: KubeObject): Subject[] {
  const subjects = (binding as BindingObject).subjects
  return Array.isArray(subjects) ? subjects.filter((s) => s && typeof s === 'object') : []
}

export function roleRefOf(binding: KubeObject): RoleRef {
  const ref = (binding as Partial<BindingObject>).roleRef
  const r = (ref && typeof ref === 'object' ? ref : {}) as Partial<RoleRef>
  return {
    apiGroup: String(r.apiGroup ?? ''),
    kind: String(r.kind ?? ''),
    name: String(r.name ?? ''),
  }
}
