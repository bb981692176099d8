/**
 * A node's Lease in kube-node-lease: kubelet's heartbeat. Node lifecycle marks the node Unknown
 * once the lease goes unrenewed for longer than the node monitor grace period; that moment is the
 * lease's deadline, which its store books and announces (see `deadline` in ../kind-strategy.ts).
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { parseTime } from '../../apimachinery/meta-time'

export const NODE_LEASE_NAMESPACE = 'kube-node-lease'

/**
 * When the node whose Lease this is counts as silent unless the lease is renewed: its renewTime
 * plus the node monitor grace period (upstream compares `now > renewTime + grace`, so the node is
 * silent from the next millisecond). Undefined for any other lease, or one never renewed.
 */
export function nodeLeaseDeadline(lease: KubeObject, gracePeriodMs: number): number | undefined {
  if (lease.metadata.namespace !== NODE_LEASE_NAMESPACE) return undefined
  const renewed = parseTime(asRecord(lease.spec).renewTime)
  return renewed === undefined ? undefined : renewed + gracePeriodMs
}
