import type { KubeObject } from '../../apimachinery/types'
import type { Cache } from '../runtime/types'
import { deployments, replicaSets } from '../resources'
import { asRecord } from '../../apimachinery/json-value'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { scaledValue } from '../shared/int-or-percent'
import {
  replicationControllers as replicationControllersRef,
  statefulSets as statefulSetsRef,
} from '../resources'

/** What the budget expects of its pods: how many there should be and how many must stay healthy. */
export interface Expectation {
  expectedCount: number
  desiredHealthy: number
  /** pods without a controller (they make a percentage or maxUnavailable budget approximate) */
  unmanaged: string[]
}

export class ExpectationError extends Error {}

const replicasOf = (o: KubeObject): number => {
  const r = asRecord(o.spec).replicas
  return typeof r === 'number' ? r : 1
}

/**
 * The scale of the controller owning a pod, as the disruption controller's finders look it up:
 * a ReplicaSet owned by a Deployment counts as the Deployment, else the ReplicaSet, StatefulSet or
 * ReplicationController itself. Undefined when the owner is not one of them or is gone.
 */
function ownerScale(cache: Cache, pod: KubeObject): { uid: string; scale: number } | undefined {
  const ref = controllerRefOf(pod)!
  const ns = pod.metadata.namespace
  if (ref.kind === 'ReplicaSet' && ref.apiVersion.startsWith('apps/')) {
    const rs = cache.get(replicaSets, ns, ref.name)
    if (!rs || rs.metadata.uid !== ref.uid) return undefined
    const owner = controllerRefOf(rs)
    if (owner?.kind === 'Deployment' && owner.apiVersion.startsWith('apps/')) {
      const d = cache.get(deployments, ns, owner.name)
      return d && d.metadata.uid === owner.uid
        ? { uid: owner.uid, scale: replicasOf(d) }
        : undefined
    }
    return { uid: ref.uid, scale: replicasOf(rs) }
  }
  if (ref.kind === 'ReplicationController' && ref.apiVersion === 'v1') {
    const rc = cache.get(replicationControllersRef, ns, ref.name)
    return rc && rc.metadata.uid === ref.uid ? { uid: ref.uid, scale: replicasOf(rc) } : undefined
  }
  if (ref.kind === 'StatefulSet' && ref.apiVersion.startsWith('apps/')) {
    const s = cache.get(statefulSetsRef, ns, ref.name)
    return s && s.metadata.uid === ref.uid ? { uid: ref.uid, scale: replicasOf(s) } : undefined
  }
  return undefined
}

/** getExpectedScale: the sum of the scales of the controllers owning the pods. */
function expectedScale(
  cache: Cache,
  selected: readonly KubeObject[],
): { count: number; unmanaged: string[] } {
  const scales = new Map<string, number>()
  const unmanaged: string[] = []
  for (const pod of selected) {
    const ref = controllerRefOf(pod)
    if (!ref) {
      unmanaged.push(pod.metadata.name ?? '')
      continue
    }
    if (scales.has(ref.uid)) continue
    const found = ownerScale(cache, pod)
    if (!found) throw new ExpectationError(`found no controllers for pod "${pod.metadata.name}"`)
    scales.set(found.uid, found.scale)
  }
  let count = 0
  for (const s of scales.values()) count += s
  return { count, unmanaged }
}

/**
 * getExpectedPodCount: maxUnavailable is taken from the owners' scale; an integer minAvailable
 * counts the selected pods; a percentage minAvailable is of the owners' scale. Both round up.
 * Throws ExpectationError when a pod's controller cannot be found.
 */
export function expectedPods(
  pdb: KubeObject,
  cache: Cache,
  selected: readonly KubeObject[],
): Expectation {
  const spec = asRecord(pdb.spec)
  const maxUnavailable = spec.maxUnavailable as number | string | undefined | null
  const minAvailable = spec.minAvailable as number | string | undefined | null
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const { count, unmanaged } = expectedScale(cache, selected)
    return {
      expectedCount: count,
      desiredHealthy: Math.max(0, count - scaledValue(maxUnavailable, count, true)),
      unmanaged,
    }
  }
  if (typeof minAvailable === 'number')
    return { expectedCount: selected.length, desiredHealthy: minAvailable, unmanaged: [] }
  if (typeof minAvailable === 'string') {
    const { count, unmanaged } = expectedScale(cache, selected)
    return {
      expectedCount: count,
      desiredHealthy: scaledValue(minAvailable, count, true),
      unmanaged,
    }
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanaged: [] }
}
