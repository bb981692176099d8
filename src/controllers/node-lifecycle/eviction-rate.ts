import type { KubeObject } from '../../apimachinery/types'
import { nodeTaints, TAINT_NOT_READY, TAINT_UNREACHABLE, type Taint } from './taints'
import type { Json } from '../../apimachinery/json-value'
import type { EvictionRateOptions } from '../../settings/eviction-rates'

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption'

/** A node's zone, as upstream's GetZoneKey: region and zone from the topology labels (or their beta forms). */
export function zoneOf(node: KubeObject): string {
  const labels = node.metadata.labels ?? {}
  const region =
    labels['topology.kubernetes.io/region'] ??
    labels['failure-domain.beta.kubernetes.io/region'] ??
    ''
  const zone =
    labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? ''
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`
}

/** ComputeZoneState: no ready node is a full disruption; more than 2 not ready, at least the threshold's share, a partial one. */
export function zoneState(
  readyStatuses: readonly (string | undefined)[],
  unhealthyZoneThreshold: number,
): ZoneState {
  const notReady = readyStatuses.filter((s) => s !== 'True').length
  const ready = readyStatuses.length - notReady
  if (ready === 0 && notReady > 0) return 'FullDisruption'
  if (notReady > 2 && notReady / readyStatuses.length >= unhealthyZoneThreshold)
    return 'PartialDisruption'
  return 'Normal'
}

/** setLimiterInZone: the normal rate, unless partially disrupted (then the secondary rate in a large zone, none in a small one). */
export function zoneRate(state: ZoneState, zoneSize: number, o: EvictionRateOptions): number {
  if (state !== 'PartialDisruption') return o.evictionRate
  return zoneSize > o.largeClusterSizeThreshold ? o.secondaryEvictionRate : 0
}

const isReadyNoExecute = (t: Taint) =>
  t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE)

const takenAt = (t: Taint) => {
  const ms = Date.parse(t.timeAdded ?? '')
  return Number.isNaN(ms) ? 0 : ms
}

/** When a rate of 0 keeps a taint back, the node is looked at again after this long. */
const stoppedRecheckMs = 10_000

/** The cluster as this pass sees it: its nodes, and each node's Ready condition after this pass's health check. */
export interface ClusterView {
  nodes: () => readonly KubeObject[]
  ready: (node: KubeObject) => Json | undefined
}

/**
 * The node's taints once the not-ready/unreachable NoExecute taint passes the eviction rate limit,
 * as kube-controller-manager's per-zone NoExecute tainting queue lets it through:
 * - when every node of the cluster is not ready, no node carries one (upstream's "master disruption
 *   mode": the control plane, not the nodes, is the likelier fault);
 * - a node that carries one already may swap not-ready for unreachable at once;
 * - otherwise a zone taints its not-ready nodes one at a time, in the order they stopped being
 *   ready, at most one per 1/rate seconds since the last such taint in the zone (a token bucket of
 *   burst 1, read from the taints' timeAdded so it holds across restarts), and none at a rate of 0.
 */
export function limitNoExecuteTaint(
  node: KubeObject,
  current: readonly Taint[],
  proposed: Taint[],
  cluster: ClusterView,
  now: number,
  o: EvictionRateOptions,
): { taints: Taint[]; retryInMs?: number } {
  if (!proposed.some(isReadyNoExecute)) return { taints: proposed }
  const name = node.metadata.name ?? ''
  const withheld = proposed.filter((t) => !isReadyNoExecute(t))
  const all = cluster.nodes()
  const statusOf = (n: KubeObject) => cluster.ready(n)?.status as string | undefined
  if (statusOf(node) !== 'True' && all.every((n) => statusOf(n) !== 'True'))
    return { taints: withheld }
  if (current.some(isReadyNoExecute)) return { taints: proposed }

  const zone = zoneOf(node)
  const zoneNodes = all.filter((n) => n.metadata.name !== name && zoneOf(n) === zone)
  const rate = zoneRate(
    zoneState([statusOf(node), ...zoneNodes.map(statusOf)], o.unhealthyZoneThreshold),
    zoneNodes.length + 1,
    o,
  )
  if (!(rate > 0)) return { taints: withheld, retryInMs: stoppedRecheckMs }
  // The queue: this zone's not-ready nodes still without the taint, longest not ready first.
  const since = (n: KubeObject) =>
    Date.parse(String(cluster.ready(n)?.lastTransitionTime ?? '')) || 0
  const mine = since(node)
  const ahead = zoneNodes.some((n) => {
    const status = statusOf(n)
    if (status === 'True' || status === undefined || nodeTaints(n).some(isReadyNoExecute))
      return false
    const at = since(n)
    return at < mine || (at === mine && (n.metadata.name ?? '') < name)
  })
  if (ahead) return { taints: withheld, retryInMs: Math.ceil(1000 / rate) }
  const last = Math.max(
    0,
    ...zoneNodes.flatMap((n) => nodeTaints(n).filter(isReadyNoExecute).map(takenAt)),
  )
  const next = last + 1000 / rate
  if (now < next) return { taints: withheld, retryInMs: Math.ceil(next - now) }
  return { taints: proposed }
}
