import { aggregatedRules, isAggregated, sameRules } from '../../apis/rbac/aggregate'
import { rulesOf } from '../../apis/rbac/types'
import { clusterRoles } from '../resources'
import type { Cache, Outcome } from '../runtime/types'

/** The names of the ClusterRoles that aggregate others. */
export function aggregatedRoleNames(cache: Cache): string[] {
  return cache
    .list(clusterRoles)
    .filter(isAggregated)
    .map((r) => r.metadata.name ?? '')
}

/**
 * One aggregated ClusterRole: its rules become those of the ClusterRoles its selectors match.
 * The update carries the resourceVersion read, so a concurrent change makes it retry on fresh state.
 */
export function reconcileAggregation(name: string, cache: Cache): Outcome {
  const role = cache.get(clusterRoles, undefined, name)
  if (!role) return { actions: [] }
  const rules = aggregatedRules(role, cache.list(clusterRoles))
  if (rules === undefined || sameRules(rules, rulesOf(role))) return { actions: [] }
  return { actions: [{ type: 'update', resource: clusterRoles, object: { ...role, rules } }] }
}
