import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { deployments, replicaSets } from '../resources'
import { podDisruptionBudgets } from './resources'
import {
  replicationControllers as replicationControllersRef,
  statefulSets as statefulSetsRef,
} from '../resources'
import { reconcileDisruptionBudget } from './reconcile'
import { disruptionWakesOn } from './wakes'
import { podReads } from '../shared/pod-reads'

const namespaceBudgets = (cache: Cache, namespace: string | undefined): string[] =>
  cache.list(podDisruptionBudgets, namespace).map(objectKey)

/**
 * The budgets a change concerns: a budget itself; for a pod or a pod's possible owner (whose scale
 * counts), every budget of its namespace, since a relabelled pod may have left a selector.
 */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, podDisruptionBudgets)) return [objectKey(object)]
  return namespaceBudgets(cache, object.metadata.namespace)
}

/**
 * The disruption controller: keeps every PodDisruptionBudget's status (currentHealthy,
 * desiredHealthy, expectedPods, disruptionsAllowed, the DisruptionAllowed condition) from the pods
 * it selects and the scale of their owners. Keys are the budgets' `namespace/name`.
 */
export function disruptionController(): ControllerDefinition {
  return {
    name: 'disruption',
    watches: {
      kinds: [
        podDisruptionBudgets,
        pods,
        replicaSets,
        deployments,
        statefulSetsRef,
        replicationControllersRef,
      ],
      // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
      reads: podReads({}),
      wakesOn: disruptionWakesOn,
      keysFor,
      allKeys: (cache) => namespaceBudgets(cache, undefined),
    },
    reconcile: reconcileDisruptionBudget,
  }
}

export { podDisruptionBudgets } from './resources'
export { reconcileDisruptionBudget } from './reconcile'
