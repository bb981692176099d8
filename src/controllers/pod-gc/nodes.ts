import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from './pods'

/** The taint an administrator puts on a node that is known to be shut down for good. */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service'

export function isReady(node: KubeObject): boolean {
  const conditions = asRecord(node.status).conditions
  return (
    Array.isArray(conditions) &&
    (conditions as Record<string, unknown>[]).some((c) => c.type === 'Ready' && c.status === 'True')
  )
}

export function hasOutOfServiceTaint(node: KubeObject): boolean {
  const taints = asRecord(node.spec).taints
  return (
    Array.isArray(taints) &&
    (taints as Record<string, unknown>[]).some((t) => t.key === OUT_OF_SERVICE_TAINT)
  )
}

/** A node whose terminating pods will never be confirmed by its kubelet. */
export const isOutOfService = (node: KubeObject): boolean =>
  !isReady(node) && hasOutOfServiceTaint(node)
