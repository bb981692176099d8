import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/**
 * The pod with its Ready condition set to False, or undefined if it is not Ready=True. Pods on a
 * node whose kubelet stopped reporting cannot be trusted to serve, and nobody else will update their
 * status, so they are taken out of Service endpoints here (upstream's MarkPodsNotReady).
 */
export function markPodNotReady(pod: KubeObject, nowTime: string): KubeObject | undefined {
  const status = asRecord(pod.status)
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Json[]) : []
  if (!conditions.some((c) => c.type === 'Ready' && c.status === 'True')) return undefined
  const updated = structuredClone(pod)
  updated.status = {
    ...status,
    conditions: conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: nowTime } : c)),
  }
  return updated
}
