import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { parseTime } from '../../apimachinery/meta-time'
import { nodeLeaseDeadline } from '../../apis/coordination/node-lease'

export { NODE_LEASE_NAMESPACE } from '../../apis/coordination/node-lease'

/** --node-startup-grace-period: the allowance of --node-monitor-grace-period (DEFAULT_GRACE_PERIOD_MS) for a node that has never reported Ready. */
export const DEFAULT_STARTUP_GRACE_PERIOD_MS = 60_000

export function nodeConditions(node: KubeObject): Json[] {
  const conditions = asRecord(node.status).conditions
  return Array.isArray(conditions) ? (conditions as Json[]) : []
}

export function readyCondition(node: KubeObject): Json | undefined {
  return nodeConditions(node).find((c) => c.type === 'Ready')
}

/**
 * The latest sign of life: the Lease's renewTime or the Ready condition's lastHeartbeatTime,
 * whichever is newer (the kubelet writes both; either proves it is alive). A node that has never
 * reported Ready counts from its creation, as upstream's node health tracking starts there.
 */
export function lastHeartbeat(node: KubeObject, lease: KubeObject | undefined): number | undefined {
  const ready = readyCondition(node)
  const candidates = [
    parseTime(asRecord(lease?.spec).renewTime),
    parseTime(ready?.lastHeartbeatTime),
  ]
  if (!ready) candidates.push(parseTime(node.metadata.creationTimestamp))
  const known = candidates.filter((t): t is number => t !== undefined)
  return known.length ? Math.max(...known) : undefined
}

export interface GracePeriods {
  gracePeriodMs: number
  startupGracePeriodMs: number
}

export interface Health {
  heartbeat?: number
  gracePeriodMs: number
  /** silent for longer than the grace period */
  stale: boolean
  /**
   * while fresh: when to look again so that expiry is noticed without any event. None while the
   * Lease's store announces the lease's deadline no later than the node's (see nodeLeaseDeadline).
   */
  recheckInMs?: number
}

/**
 * Whether the node's kubelet has gone silent. Expiry is strict (`now > heartbeat + grace`, as
 * upstream compares), so the recheck lands one millisecond past the deadline; it is capped to the
 * grace period so that a heartbeat stamped in the future by a skewed clock cannot postpone it.
 * A Lease whose deadline is still ahead, and no later than the node's, needs no recheck: its store
 * announces it if it passes unrenewed, so renewals cost no pass. Without any timestamp there is
 * nothing to judge by, and the node is looked at again later.
 */
export function assessHealth(
  node: KubeObject,
  lease: KubeObject | undefined,
  now: number,
  periods: GracePeriods,
): Health {
  const gracePeriodMs = readyCondition(node) ? periods.gracePeriodMs : periods.startupGracePeriodMs
  const heartbeat = lastHeartbeat(node, lease)
  if (heartbeat === undefined) return { gracePeriodMs, stale: false, recheckInMs: gracePeriodMs }
  const deadline = heartbeat + gracePeriodMs
  if (now > deadline) return { heartbeat, gracePeriodMs, stale: true }
  const leaseDue = lease && nodeLeaseDeadline(lease, periods.gracePeriodMs)
  if (leaseDue !== undefined && leaseDue >= now && leaseDue <= deadline)
    return { heartbeat, gracePeriodMs, stale: false }
  return {
    heartbeat,
    gracePeriodMs,
    stale: false,
    recheckInMs: Math.max(1, Math.min(gracePeriodMs, deadline + 1 - now)),
  }
}
