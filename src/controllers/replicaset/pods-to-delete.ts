import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { pods, replicaSets } from '../resources'
import type { Cache } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import {
  isPodActive,
  isPodReady,
  maxContainerRestarts,
  podNodeName,
  podPhase,
  podReadySince,
} from '../shared/pods'
import type { ReplicaSet } from '../shared/workloads'
import { parseTime } from '../../apimachinery/meta-time'

const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost'

/** Pending < Unknown < Running; any other phase ranks with Pending, as a missing key of upstream's map does. */
const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 }

interface Ranked {
  pod: KubeObject
  /** how many related pods share its node: doubled-up pods go first */
  rank: number
}

/** The pod-deletion-cost annotation as an int32; a missing or malformed one costs 0. */
function deletionCost(pod: KubeObject): number {
  const v = pod.metadata.annotations?.[DELETION_COST_ANNOTATION]
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0
  const n = Number(v)
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : 0
}

/** afterOrZero: a zero time sorts first, otherwise the later time does. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined
  return t1 > t2
}

/** logarithmicRankDiff: compares how long ago two instants were on a log2 scale of nanoseconds. */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const bucket = (t: number) => {
    const ns = (now - t) * 1e6
    return ns > 0 ? Math.floor(Math.log2(ns)) : -1
  }
  return bucket(t1) - bucket(t2)
}

/** The LogarithmicScaleDown comparison of two times: the more recent bucket first, ties broken by uid. */
function newerFirst(
  a: KubeObject,
  b: KubeObject,
  t1: number | undefined,
  t2: number | undefined,
  now: number,
): boolean {
  if (t1 === undefined || t2 === undefined) return afterOrZero(t1, t2)
  const diff = logarithmicRankDiff(t1, t2, now)
  if (diff === 0) return (a.metadata.uid ?? '') < (b.metadata.uid ?? '')
  return diff < 0
}

/**
 * ActivePodsWithRanks.Less: whether `a` should be deleted before `b`. Unassigned < assigned;
 * Pending < Unknown < Running; not ready < ready; lower deletion cost < higher; more related pods
 * on the node < fewer; ready for a shorter time < longer; more restarts < fewer; newer < older.
 * Times compare on upstream's logarithmic scale (LogarithmicScaleDown, on by default).
 */
export function deletesBefore(a: Ranked, b: Ranked, now: number): boolean {
  const [p1, p2] = [a.pod, b.pod]
  const [n1, n2] = [podNodeName(p1), podNodeName(p2)]
  if (n1 !== n2 && (n1 === '' || n2 === '')) return n1 === ''
  const [o1, o2] = [phaseOrdinal[podPhase(p1)] ?? 0, phaseOrdinal[podPhase(p2)] ?? 0]
  if (o1 !== o2) return o1 < o2
  const [r1, r2] = [isPodReady(p1), isPodReady(p2)]
  if (r1 !== r2) return !r1
  const [c1, c2] = [deletionCost(p1), deletionCost(p2)]
  if (c1 !== c2) return c1 < c2
  if (a.rank !== b.rank) return a.rank > b.rank
  if (r1 && r2) {
    const [t1, t2] = [podReadySince(p1), podReadySince(p2)]
    if (t1 !== t2) return newerFirst(p1, p2, t1, t2, now)
  }
  const [x1, x2] = [maxContainerRestarts(p1), maxContainerRestarts(p2)]
  if (x1 !== x2) return x1 > x2
  const [t1, t2] = [
    parseTime(p1.metadata.creationTimestamp),
    parseTime(p2.metadata.creationTimestamp),
  ]
  if (t1 !== t2) return newerFirst(p1, p2, t1, t2, now)
  return false
}

/**
 * getIndirectlyRelatedPods: the pods selected by any ReplicaSet that shares this one's controller
 * (e.g. the old and new ReplicaSets of one Deployment). A ReplicaSet without a controller has none.
 */
export function relatedPods(rs: ReplicaSet, cache: Cache): KubeObject[] {
  const ref = controllerRefOf(rs)
  if (!ref) return []
  const namespace = rs.metadata.namespace ?? ''
  const seen = new Set<string>()
  const out: KubeObject[] = []
  const candidates = cache.list(pods, namespace)
  for (const sibling of cache.list(replicaSets, namespace)) {
    if (controllerRefOf(sibling)?.uid !== ref.uid) continue
    let selects: (p: KubeObject) => boolean
    try {
      const selector = selectorFromLabelSelector((sibling as ReplicaSet).spec?.selector)
      selects = (p) => matchesLabels(selector, p.metadata.labels)
    } catch {
      continue
    }
    for (const p of candidates) {
      const uid = p.metadata.uid ?? ''
      if (seen.has(uid) || !selects(p)) continue
      seen.add(uid)
      out.push(p)
    }
  }
  return out
}

/** getPodsRankedByRelatedPodsOnSameNode: each pod ranked by the active related pods on its node. */
export function rankByRelatedPodsOnSameNode(
  toRank: readonly KubeObject[],
  related: readonly KubeObject[],
): Ranked[] {
  const onNode = new Map<string, number>()
  for (const p of related)
    if (isPodActive(p)) onNode.set(podNodeName(p), (onNode.get(podNodeName(p)) ?? 0) + 1)
  return toRank.map((pod) => ({ pod, rank: onNode.get(podNodeName(pod)) ?? 0 }))
}

/** getPodsToDelete: the `diff` pods to delete first; the ranking is skipped when all of them go. */
export function podsToDelete(
  filtered: readonly KubeObject[],
  related: readonly KubeObject[],
  diff: number,
  now: number,
): KubeObject[] {
  if (diff >= filtered.length) return filtered.slice(0, diff)
  const ranked = rankByRelatedPodsOnSameNode(filtered, related)
  ranked.sort((a, b) => (deletesBefore(a, b, now) ? -1 : deletesBefore(b, a, now) ? 1 : 0))
  return ranked.slice(0, diff).map((r) => r.pod)
}
