import { controllerRevisions, persistentVolumeClaims, pods, statefulSets } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allStatefulSetKeys, statefulSetKeysFor } from './keys'
import { reconcileStatefulSet } from './reconcile'
import { wakesOnPodsOf } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'

/**
 * The StatefulSet controller: pods with stable names `<set>-<ordinal>`, created and removed in
 * order (or in parallel), rolled to new revisions from the highest ordinal down, with the
 * ControllerRevisions `kubectl rollout history|undo` read. Watches statefulsets, pods and
 * controllerrevisions; keys are the sets' `namespace/name`.
 */
export function statefulSetController(): ControllerDefinition {
  return {
    name: 'statefulset',
    watches: {
      kinds: [statefulSets, pods, controllerRevisions, persistentVolumeClaims],
      // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
      reads: podReads({}),
      wakesOn: wakesOnPodsOf('StatefulSet'),
      keysFor: statefulSetKeysFor,
      allKeys: allStatefulSetKeys,
    },
    reconcile: reconcileStatefulSet,
  }
}

export { reconcileStatefulSet } from './reconcile'
export { planOrdinals, type Step, type PlanInput } from './plan'
export { computeStatus } from './status'
