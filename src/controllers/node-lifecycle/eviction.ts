import type { KubeObject } from '../../apimachinery/types'
import { podTolerations, toleratesTaint, type Taint, type Toleration } from './taints'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { parseTime } from '../../apimachinery/meta-time'

/** What the taint manager does about one pod on a node with NoExecute taints. */
export type EvictionPlan =
  /** tolerated with no time limit, or no NoExecute taint at all */
  | { kind: 'keep' }
  | { kind: 'evict' }
  /** tolerated until `at` (epoch ms) */
  | { kind: 'wait'; at: number }

/**
 * When the pod arrived on its node: the PodScheduled=True transition, else its creation. A
 * toleration's clock cannot start before the pod was there to be tainted.
 */
function arrivedAt(pod: KubeObject): number | undefined {
  const conditions = asRecord(pod.status).conditions
  const scheduled = Array.isArray(conditions)
    ? (conditions as Json[]).find((c) => c.type === 'PodScheduled' && c.status === 'True')
    : undefined
  return parseTime(scheduled?.lastTransitionTime) ?? parseTime(pod.metadata.creationTimestamp)
}

/**
 * Taint-based eviction, without memory between passes. Each NoExecute taint is matched with the
 * first toleration that tolerates it (as upstream's GetMatchingTolerations does); any untolerated
 * taint means eviction now. Otherwise the pod may stay until the earliest deadline among tolerations
 * with tolerationSeconds (≤ 0 means now), counted from when both the taint and the pod were on the
 * node: the later of the taint's timeAdded and the pod's arrival. Upstream counts from when its
 * taint manager first saw the pair; the stored timestamps give the same answer and survive restarts.
 */
export function planEviction(
  pod: KubeObject,
  noExecuteTaints: readonly Taint[],
  now: number,
): EvictionPlan {
  const tolerations: Toleration[] = podTolerations(pod)
  let earliest: number | undefined
  for (const taint of noExecuteTaints) {
    const toleration = tolerations.find((t) => toleratesTaint(t, taint))
    if (!toleration) return { kind: 'evict' }
    const seconds = toleration.tolerationSeconds
    if (typeof seconds !== 'number') continue
    if (seconds <= 0) return { kind: 'evict' }
    const starts = [parseTime(taint.timeAdded), arrivedAt(pod)].filter(
      (t): t is number => t !== undefined,
    )
    const from = starts.length ? Math.max(...starts) : now
    const deadline = from + seconds * 1000
    earliest = earliest === undefined ? deadline : Math.min(earliest, deadline)
  }
  if (earliest === undefined) return { kind: 'keep' }
  return now >= earliest ? { kind: 'evict' } : { kind: 'wait', at: earliest }
}
