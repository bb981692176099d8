import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, type LabelSelector } from '../../apimachinery/labels'
import { pods, replicaSets } from '../resources'
import {
  claimObjects,
  controllerRefOf,
  newControllerRef,
  ownerRefsPatch,
  withoutOwner,
} from '../../apimachinery/owner-refs'
import type { ReplicaSet } from '../shared/workloads'
import type { Plan } from './plan'

/**
 * getReplicaSetsForDeployment: claims the ReplicaSets in the Deployment's namespace by selector,
 * adopting matching orphans (their working copies gain the controller reference, written when the
 * plan commits) and releasing owned ones that no longer match.
 */
export function claimReplicaSets(plan: Plan, selector: LabelSelector): ReplicaSet[] {
  const d = plan.d
  const claim = claimObjects(d, selector, plan.cache.list(replicaSets, d.metadata.namespace ?? ''))
  const adopting = new Set(claim.adopt)
  const ref = newControllerRef(d, 'apps/v1', 'Deployment')
  for (const rs of claim.release) {
    const { namespace, name = '' } = rs.metadata
    plan.release({
      type: 'patch',
      resource: replicaSets,
      namespace,
      name,
      patch: ownerRefsPatch(rs, withoutOwner(rs, d.metadata.uid ?? '')),
    })
  }
  return claim.claimed.map((o) => {
    const rs = plan.track(o)
    if (adopting.has(o)) rs.metadata.ownerReferences = [...(rs.metadata.ownerReferences ?? []), ref]
    return rs
  })
}

/**
 * getPodMapForDeployment: the pods the Deployment selects, grouped by the uid of the claimed
 * ReplicaSet that controls them. Recreate reads it to wait until old pods are gone.
 */
export function podsByReplicaSet(
  plan: Plan,
  selector: LabelSelector,
  rsList: readonly ReplicaSet[],
): Map<string, KubeObject[]> {
  const byUid = new Map<string, KubeObject[]>()
  for (const rs of rsList) if (rs.metadata.uid) byUid.set(rs.metadata.uid, [])
  for (const pod of plan.cache.list(pods, plan.d.metadata.namespace ?? '')) {
    if (!matchesLabels(selector, pod.metadata.labels)) continue
    const list = byUid.get(controllerRefOf(pod)?.uid ?? '')
    if (list) list.push(pod)
  }
  return byUid
}
