import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, type LabelSelector } from '../../apimachinery/labels'
import { pods as podsRef } from '../resources'
import type { Action } from '../runtime/types'
import { newControllerRef } from '../../apimachinery/owner-refs'
import { podFromTemplate } from '../shared/pod-template'
import type { ReplicaSet } from '../shared/workloads'
import { podsToDelete } from './pods-to-delete'
import { replicaDiff } from './status'
import { BURST_REPLICAS } from '../runtime/burst'

export interface ReplicaChanges {
  creates: KubeObject[]
  deletes: KubeObject[]
}

/**
 * manageReplicas: the pods to create (from spec.template, with the controller reference) when
 * fewer are active than desired, or the pods to delete, ranked as upstream ranks victims, when more.
 * Pods whose labels the selector would not match are never created: they would not count, and
 * every pass would create more (upstream's validation and its "no labels" check prevent this).
 */
export function manageReplicas(
  rs: ReplicaSet,
  selector: LabelSelector,
  active: readonly KubeObject[],
  related: readonly KubeObject[],
  now: number,
): ReplicaChanges {
  const diff = replicaDiff(rs, active)
  if (diff < 0) {
    if (!matchesLabels(selector, rs.spec.template?.metadata?.labels))
      return { creates: [], deletes: [] }
    const ref = newControllerRef(rs, 'apps/v1', 'ReplicaSet')
    const count = Math.min(-diff, BURST_REPLICAS)
    return {
      creates: Array.from({ length: count }, () => podFromTemplate(rs.spec.template, rs, ref)),
      deletes: [],
    }
  }
  if (diff > 0)
    return {
      creates: [],
      deletes: podsToDelete(active, related, Math.min(diff, BURST_REPLICAS), now),
    }
  return { creates: [], deletes: [] }
}

export function createAction(pod: KubeObject): Action {
  return { type: 'create', resource: podsRef, object: pod }
}

/** A delete guarded by the pod's uid, so a same-named replacement is never the one removed. */
export function deleteAction(pod: KubeObject): Action {
  return {
    type: 'delete',
    resource: podsRef,
    namespace: pod.metadata.namespace,
    name: pod.metadata.name ?? '',
    preconditions: { uid: pod.metadata.uid },
  }
}
