/**
 * rbac.authorization.k8s.io validation and defaulting as kube-apiserver v1.32 does it
 * (pkg/apis/rbac/validation, pkg/apis/rbac/v1/defaults.go), with upstream's paths and messages.
 */
import type { KubeObject } from '../../apimachinery/types'
import { invalid, notSupported, required, type FieldCause } from '../../apimachinery/field-errors'
import { selectorFromLabelSelector, SelectorError } from '../../apimachinery/labels'
import { validateMetaLabelSelector } from '../validation/selectors'
import { rbacGroup } from '../resource-table/access'
import { readRule, roleRefOf, subjectsOf, type RoleObject } from './types'
import { goQuote } from '../../apimachinery/go-format'
import { isDns1123Subdomain, isValidPathSegmentName } from '../../apimachinery/field-formats'

export const rbacKinds = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']

/** SetDefaults_Subject and SetDefaults_RoleRef: User and Group subjects and role refs are in the RBAC group. */
export function defaultRbacObject(kind: string, obj: KubeObject): void {
  if (kind !== 'RoleBinding' && kind !== 'ClusterRoleBinding') return
  const b = obj as Record<string, unknown>
  if (b.roleRef && typeof b.roleRef === 'object') {
    const ref = b.roleRef as Record<string, unknown>
    if (!ref.apiGroup) ref.apiGroup = rbacGroup
  }
  if (Array.isArray(b.subjects)) {
    for (const s of b.subjects as Record<string, unknown>[]) {
      if (s && typeof s === 'object' && !s.apiGroup && (s.kind === 'User' || s.kind === 'Group'))
        s.apiGroup = rbacGroup
    }
  }
}

/** Spec causes of an RBAC object on create and update, in upstream's order. */
export function validateRbacObject(kind: string, obj: KubeObject): FieldCause[] {
  switch (kind) {
    case 'Role':
      return validateRules(obj, true)
    case 'ClusterRole':
      return [...validateRules(obj, false), ...validateAggregation(obj as RoleObject)]
    case 'RoleBinding':
      return validateBinding(obj, true)
    case 'ClusterRoleBinding':
      return validateBinding(obj, false)
    default:
      return []
  }
}

/** An update may not point a binding at another role. */
export function validateRbacUpdate(kind: string, old: KubeObject, next: KubeObject): FieldCause[] {
  if (kind !== 'RoleBinding' && kind !== 'ClusterRoleBinding') return []
  const a = roleRefOf(old)
  const b = roleRefOf(next)
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return []
  const display = `rbac.RoleRef{APIGroup:${goQuote(b.apiGroup)}, Kind:${goQuote(b.kind)}, Name:${goQuote(b.name)}}`
  return [invalid('roleRef', b, 'cannot change roleRef', display)]
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldCause[] {
  const rules = (obj as RoleObject).rules
  return (Array.isArray(rules) ? rules : []).flatMap((raw, i) =>
    validatePolicyRule(readRule(raw), namespaced, `rules[${i}]`),
  )
}

/** ValidatePolicyRule. */
export function validatePolicyRule(
  rule: ReturnType<typeof readRule>,
  namespaced: boolean,
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  if (!rule.verbs.length)
    causes.push(required(`${path}.verbs`, 'verbs must contain at least one value'))
  const urls = rule.nonResourceURLs ?? []
  if (urls.length) {
    if (namespaced)
      causes.push(
        invalid(
          `${path}.nonResourceURLs`,
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      )
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      causes.push(
        invalid(
          `${path}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      )
    }
    return causes
  }
  if (!rule.apiGroups?.length)
    causes.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'))
  if (!rule.resources?.length)
    causes.push(required(`${path}.resources`, 'resource rules must supply at least one resource'))
  return causes
}

function validateAggregation(role: RoleObject): FieldCause[] {
  const rule = role.aggregationRule
  if (rule === undefined || rule === null) return []
  const selectors = Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : []
  const path = 'aggregationRule.clusterRoleSelectors'
  if (!selectors.length)
    return [
      required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'),
    ]
  const causes: FieldCause[] = []
  selectors.forEach((sel, i) => {
    const found = validateMetaLabelSelector(sel, `${path}[${i}]`)
    causes.push(...found)
    if (found.length) return
    try {
      selectorFromLabelSelector(sel)
    } catch (e) {
      if (!(e instanceof SelectorError)) throw e
      causes.push(invalid(`${path}[${i}]`, sel, 'invalid label selector.'))
    }
  })
  return causes
}

function validateBinding(obj: KubeObject, namespaced: boolean): FieldCause[] {
  const causes: FieldCause[] = []
  const ref = roleRefOf(obj)
  if (ref.apiGroup !== rbacGroup)
    causes.push(notSupported('roleRef.apiGroup', ref.apiGroup, [rbacGroup]))
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole']
  if (!kinds.includes(ref.kind)) causes.push(notSupported('roleRef.kind', ref.kind, kinds))
  if (!ref.name) causes.push(required('roleRef.name'))
  else
    for (const msg of isValidPathSegmentName(ref.name))
      causes.push(invalid('roleRef.name', ref.name, msg))
  subjectsOf(obj).forEach((s, i) =>
    causes.push(...validateSubject(s, namespaced, `subjects[${i}]`)),
  )
  return causes
}

/** ValidateRoleBindingSubject. */
function validateSubject(
  s: ReturnType<typeof subjectsOf>[number],
  namespaced: boolean,
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  const name = typeof s.name === 'string' ? s.name : ''
  const apiGroup = typeof s.apiGroup === 'string' ? s.apiGroup : ''
  if (!name) causes.push(required(`${path}.name`))
  switch (s.kind) {
    case 'ServiceAccount':
      if (name)
        for (const msg of isDns1123Subdomain(name)) causes.push(invalid(`${path}.name`, name, msg))
      if (apiGroup) causes.push(notSupported(`${path}.apiGroup`, apiGroup, ['']))
      if (!namespaced && !s.namespace) causes.push(required(`${path}.namespace`))
      break
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup)
        causes.push(notSupported(`${path}.apiGroup`, apiGroup, [rbacGroup]))
      break
    default:
      causes.push(notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']))
  }
  return causes
}
