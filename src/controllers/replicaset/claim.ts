import type { KubeObject } from '../../apimachinery/types'
import type { LabelSelector } from '../../apimachinery/labels'
import { pods } from '../resources'
import type { Action } from '../runtime/types'
import {
  claimObjects,
  newControllerRef,
  ownerRefsPatch,
  withControllerRef,
  withoutOwner,
} from '../../apimachinery/owner-refs'
import type { ReplicaSet } from '../shared/workloads'

export interface ClaimedPods {
  /** the active pods this ReplicaSet controls after the pass, adopted ones included */
  owned: KubeObject[]
  /** uids of pods adopted in this pass */
  adoptedUids: string[]
  actions: Action[]
}

/**
 * claimPods: adopts matching orphans by adding the ReplicaSet's controller reference, and releases
 * owned pods whose labels no longer match by removing it, each with a merge patch of the pod.
 */
export function claimPods(
  rs: ReplicaSet,
  selector: LabelSelector,
  candidates: readonly KubeObject[],
): ClaimedPods {
  const claim = claimObjects(rs, selector, candidates)
  const ref = newControllerRef(rs, 'apps/v1', 'ReplicaSet')
  const actions: Action[] = []
  const adopted = new Map<KubeObject, KubeObject>()
  for (const pod of claim.adopt) {
    const next = withControllerRef(pod, ref)
    adopted.set(pod, next)
    actions.push(patchOf(pod, next))
  }
  for (const pod of claim.release)
    actions.push(patchOf(pod, withoutOwner(pod, rs.metadata.uid ?? '')))
  return {
    owned: claim.claimed.map((p) => adopted.get(p) ?? p),
    adoptedUids: claim.adopt.map((p) => p.metadata.uid ?? ''),
    actions,
  }
}

function patchOf(pod: KubeObject, next: KubeObject): Action {
  return {
    type: 'patch',
    resource: pods,
    namespace: pod.metadata.namespace,
    name: pod.metadata.name ?? '',
    patch: ownerRefsPatch(pod, next),
  }
}
