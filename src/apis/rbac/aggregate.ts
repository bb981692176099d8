/**
 * ClusterRole aggregation, as upstream's clusterrole-aggregation controller computes it: an
 * aggregated ClusterRole's rules are the rules of every other ClusterRole its selectors match,
 * taken in name order, without duplicates.
 */
import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, selectorFromLabelSelector, SelectorError } from '../../apimachinery/labels'
import { rulesOf, type PolicyRule, type RoleObject } from './types'

export function isAggregated(role: KubeObject): boolean {
  const rule = (role as RoleObject).aggregationRule
  return !!rule && typeof rule === 'object'
}

/** The rules `role` aggregates from `all` (other ClusterRoles), or undefined when it does not aggregate. */
export function aggregatedRules(
  role: KubeObject,
  all: readonly KubeObject[],
): PolicyRule[] | undefined {
  if (!isAggregated(role)) return undefined
  const selectors = (role as RoleObject).aggregationRule?.clusterRoleSelectors ?? []
  const compiled = selectors.flatMap((s) => {
    try {
      return [selectorFromLabelSelector(s)]
    } catch (e) {
      if (e instanceof SelectorError) return []
      throw e
    }
  })
  const sources = all
    .filter(
      (r) =>
        r.metadata.name !== role.metadata.name &&
        compiled.some((sel) => matchesLabels(sel, r.metadata.labels)),
    )
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
  const rules: PolicyRule[] = []
  const seen = new Set<string>()
  for (const source of sources) {
    for (const rule of rulesOf(source)) {
      const key = JSON.stringify(rule)
      if (seen.has(key)) continue
      seen.add(key)
      rules.push(rule)
    }
  }
  return rules
}

export const sameRules = (a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b)

/** Every role with its aggregated rules filled in, aggregating over aggregated roles until nothing changes. */
export function aggregateRoles(roles: readonly RoleObject[]): RoleObject[] {
  let current = roles.map((r) => ({ ...r }))
  for (let pass = 0; pass < 10; pass++) {
    let changed = false
    current = current.map((r) => {
      const rules = aggregatedRules(r, current)
      if (rules === undefined || sameRules(rules, rulesOf(r))) return r
      changed = true
      return { ...r, rules }
    })
    if (!changed) break
  }
  return current
}
