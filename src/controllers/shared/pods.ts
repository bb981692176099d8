import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { parseTime } from '../../apimachinery/meta-time'

/** Pod predicates shared by the workload controllers (pkg/controller and pkg/api/v1/pod upstream). */

export function podPhase(pod: KubeObject): string {
  const phase = asRecord(pod.status).phase
  return typeof phase === 'string' ? phase : ''
}

export function podNodeName(pod: KubeObject): string {
  const node = asRecord(pod.spec).nodeName
  return typeof node === 'string' ? node : ''
}

/** controller.IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: KubeObject): boolean {
  const phase = podPhase(pod)
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp
}

export function podReadyCondition(pod: KubeObject): Json | undefined {
  const conditions = asRecord(pod.status).conditions
  return Array.isArray(conditions)
    ? (conditions as Json[]).find((c) => asRecord(c).type === 'Ready')
    : undefined
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  return podReadyCondition(pod)?.status === 'True'
}

/** When a ready pod last became ready; undefined for a pod that is not ready or has no transition time. */
export function podReadySince(pod: KubeObject): number | undefined {
  const c = podReadyCondition(pod)
  return c?.status === 'True' ? parseTime(c.lastTransitionTime) : undefined
}

/**
 * podutil.IsPodAvailable: ready, and ready for at least minReadySeconds. As upstream, the ready
 * time plus minReadySeconds must lie strictly before now, and a ready pod with no transition time
 * never becomes available while minReadySeconds is set.
 */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false
  if (minReadySeconds <= 0) return true
  const since = podReadySince(pod)
  return since !== undefined && since + minReadySeconds * 1000 < now
}

/** How long until a ready pod becomes available (just past the instant upstream's strict comparison flips), if it will. */
export function availableInMs(
  pod: KubeObject,
  minReadySeconds: number,
  now: number,
): number | undefined {
  if (minReadySeconds <= 0 || !isPodReady(pod) || isPodAvailable(pod, minReadySeconds, now))
    return undefined
  const since = podReadySince(pod)
  return since === undefined ? undefined : Math.max(0, since + minReadySeconds * 1000 - now) + 1
}

/** The highest restart count among the pod's containers (compareMaxContainerRestarts). */
export function maxContainerRestarts(pod: KubeObject): number {
  const statuses = asRecord(pod.status).containerStatuses
  let max = 0
  if (Array.isArray(statuses))
    for (const s of statuses) max = Math.max(max, Number(asRecord(s).restartCount) || 0)
  return max
}
