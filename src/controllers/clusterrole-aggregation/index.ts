import type { ControllerDefinition } from '../runtime/types'
import { clusterRoles } from '../resources'
import { aggregatedRoleNames, reconcileAggregation } from './reconcile'

/**
 * Keeps every ClusterRole with an aggregationRule holding the rules of the ClusterRoles its
 * selectors match (upstream's clusterrole-aggregation controller). Keys are aggregated role
 * names; any ClusterRole change may concern any of them, so each change queues them all.
 */
export function clusterRoleAggregationController(): ControllerDefinition {
  return {
    name: 'clusterrole-aggregation',
    watches: {
      kinds: [clusterRoles],
      keysFor: (_resource, _object, cache) => aggregatedRoleNames(cache),
      allKeys: aggregatedRoleNames,
    },
    reconcile: (key, cache) => reconcileAggregation(key, cache),
  }
}
