import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/**
 * The status patch that sets the pod's Ready condition to False, or undefined if it is not
 * Ready=True. Pods on a node whose kubelet stopped reporting cannot be trusted to serve, and nobody
 * else will update their status, so they are taken out of Service endpoints here (upstream's
 * MarkPodsNotReady). The patch replaces the conditions only, and only while the pod is still the
 * one read (its resourceVersion), as upstream's status update of the whole pod does.
 */
export function markPodNotReady(pod: KubeObject, nowTime: string): Json | undefined {
  const status = asRecord(pod.status)
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Json[]) : []
  if (!conditions.some((c) => c.type === 'Ready' && c.status === 'True')) return undefined
  return {
    metadata: { resourceVersion: pod.metadata.resourceVersion },
    status: {
      conditions: conditions.map((c) =>
        c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: nowTime } : c,
      ),
    },
  }
}
