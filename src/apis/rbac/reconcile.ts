/**
 * Reconciling a default role or binding with what is stored, as upstream's bootstrap reconcile
 * (`kubectl auth reconcile` without --remove-extra-*): missing rules, selectors, subjects, labels
 * and annotations are added, nothing is taken away, and an object annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"` is left alone.
 */
import type { KubeObject } from '../../apimachinery/types'
import { autoUpdateAnnotation } from './bootstrap-policy'
import { uncovered } from './covers'
import { roleRefOf, rulesOf, subjectsOf, type BindingObject, type RoleObject } from './types'

const keepsDefaults = (obj: KubeObject) =>
  obj.metadata.annotations?.[autoUpdateAnnotation] !== 'false'

function mergedMeta(existing: KubeObject, expected: KubeObject): KubeObject['metadata'] {
  return {
    ...existing.metadata,
    labels: { ...expected.metadata.labels, ...existing.metadata.labels },
    annotations: { ...expected.metadata.annotations, ...existing.metadata.annotations },
  }
}

/** The role to store, or undefined when the stored one already holds everything expected. */
export function reconcileRole(existing: RoleObject, expected: RoleObject): RoleObject | undefined {
  if (!keepsDefaults(existing)) return undefined
  const next: RoleObject = { ...existing, metadata: mergedMeta(existing, expected) }
  if (expected.aggregationRule) {
    const have = existing.aggregationRule?.clusterRoleSelectors ?? []
    const keys = new Set(have.map((s) => JSON.stringify(s)))
    const add = (expected.aggregationRule.clusterRoleSelectors ?? []).filter(
      (s) => !keys.has(JSON.stringify(s)),
    )
    if (add.length || !existing.aggregationRule)
      next.aggregationRule = { clusterRoleSelectors: [...have, ...add] }
  } else {
    const missing = uncovered(rulesOf(existing), rulesOf(expected))
    if (missing.length) next.rules = [...rulesOf(existing), ...missing]
  }
  return JSON.stringify(next) === JSON.stringify(existing) ? undefined : next
}

export type BindingPlan =
  | { action: 'none' }
  | { action: 'update'; object: BindingObject }
  | { action: 'recreate'; object: BindingObject }

/** What to do with a stored binding: add missing subjects, or recreate it when it points at another role. */
export function reconcileBinding(existing: BindingObject, expected: BindingObject): BindingPlan {
  if (!keepsDefaults(existing)) return { action: 'none' }
  const want = roleRefOf(expected)
  const have = roleRefOf(existing)
  if (want.kind !== have.kind || want.name !== have.name || want.apiGroup !== have.apiGroup)
    return { action: 'recreate', object: expected }
  const subjects = subjectsOf(existing)
  const key = (s: { kind: string; name: string; namespace?: string }) =>
    `${s.kind}/${s.namespace ?? ''}/${s.name}`
  const keys = new Set(subjects.map(key))
  const add = subjectsOf(expected).filter((s) => !keys.has(key(s)))
  const next: BindingObject = {
    ...existing,
    metadata: mergedMeta(existing, expected),
    subjects: [...subjects, ...add],
  }
  if (!add.length && JSON.stringify(next.metadata) === JSON.stringify(existing.metadata))
    return { action: 'none' }
  return { action: 'update', object: next }
}
