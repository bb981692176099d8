import type { KubeObject } from '../../apimachinery/types'
import type { Json } from '../../apimachinery/json-value'
import { objectKey } from '../../apimachinery/object-key'

export const asRecord = (v: unknown): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {}

export const podKey = (pod: KubeObject): string => objectKey(pod)

export const phaseOf = (pod: KubeObject): string => String(asRecord(pod.status).phase ?? '')

export const nodeNameOf = (pod: KubeObject): string => {
  const n = asRecord(pod.spec).nodeName
  return typeof n === 'string' ? n : ''
}

/** Upstream's isPodTerminated: any phase other than Pending, Running and Unknown. */
export function isTerminated(pod: KubeObject): boolean {
  const phase = phaseOf(pod)
  return phase !== '' && phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown'
}

/** A pod the kubelet evicted: Failed with reason Evicted. */
export const isEvicted = (pod: KubeObject): boolean =>
  phaseOf(pod) === 'Failed' && asRecord(pod.status).reason === 'Evicted'

/** Already deleted with no grace period: only its finalizers hold it, and deleting again changes nothing. */
export const isForceDeleted = (pod: KubeObject): boolean =>
  !!pod.metadata.deletionTimestamp && Number(pod.metadata.deletionGracePeriodSeconds ?? -1) === 0

const createdAt = (pod: KubeObject): number => {
  const t = Date.parse(pod.metadata.creationTimestamp ?? '')
  return Number.isNaN(t) ? 0 : t
}

/**
 * Deletion order among terminated pods (upstream's byEvictionAndCreationTimestamp): evicted pods
 * first, as they are the least likely to be wanted by a controller; then oldest first; names break
 * ties (namespaces too, so that the order is total).
 */
export function byEvictionAndAge(a: KubeObject, b: KubeObject): number {
  const ea = isEvicted(a)
  if (ea !== isEvicted(b)) return ea ? -1 : 1
  const d = createdAt(a) - createdAt(b)
  if (d !== 0) return d
  const na = a.metadata.name ?? ''
  const nb = b.metadata.name ?? ''
  if (na !== nb) return na < nb ? -1 : 1
  const sa = a.metadata.namespace ?? ''
  const sb = b.metadata.namespace ?? ''
  return sa < sb ? -1 : sa > sb ? 1 : 0
}
