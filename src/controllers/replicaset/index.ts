import { pods, replicaSets } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allReplicaSetKeys, replicaSetKeysFor } from './keys'
import { reconcileReplicaSet } from './reconcile'
import { wakesOnPodsOf } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'

/**
 * The ReplicaSet controller: keeps spec.replicas active pods for every ReplicaSet, adopting and
 * releasing pods by selector, and reports their counts in status. Watches replicasets and pods;
 * keys are the ReplicaSets' `namespace/name`.
 */
export function replicaSetController(): ControllerDefinition {
  return {
    name: 'replicaset',
    watches: {
      kinds: [replicaSets, pods],
      // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
      reads: podReads({}),
      wakesOn: wakesOnPodsOf('ReplicaSet'),
      keysFor: replicaSetKeysFor,
      allKeys: allReplicaSetKeys,
    },
    reconcile: reconcileReplicaSet,
  }
}

export { reconcileReplicaSet } from './reconcile'
export { calculateStatus } from './status'
export { podsToDelete } from './pods-to-delete'
