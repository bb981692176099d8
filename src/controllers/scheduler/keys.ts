import type { KubeObject } from '../../apimachinery/types'
import type { Cache } from '../runtime/types'
import { pods } from '../resources'
import { isPendingFor, podKey } from './pods'
import { asRecord, type Json } from '../../apimachinery/json-value'

export function pendingKeys(cache: Cache, schedulerName: string): string[] {
  return cache
    .list(pods)
    .filter((p) => isPendingFor(p, schedulerName))
    .map(podKey)
}

const sortedEntries = (v: unknown) =>
  Object.entries(asRecord(v)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/**
 * The part of a node that any filter reads: Ready, spec.unschedulable, taints, labels (node
 * selectors and affinity) and allocatable. Heartbeats and other status churn leave it unchanged, so
 * they do not send every pending pod through another attempt.
 */
export function schedulingFingerprint(node: KubeObject): string {
  const spec = asRecord(node.spec)
  const status = asRecord(node.status)
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Json[]) : []
  const taints = Array.isArray(spec.taints)
    ? (spec.taints as Json[]).map((t) => [t.key, t.value ?? '', t.effect])
    : []
  return JSON.stringify([
    conditions.find((c) => c.type === 'Ready')?.status ?? '',
    spec.unschedulable === true,
    taints,
    sortedEntries(node.metadata.labels),
    sortedEntries(status.allocatable ?? status.capacity),
  ])
}
