import type { KubeObject } from '../../apimachinery/types'
import type { Rejection } from './rejection'
import { podSpec } from './pods'

/**
 * The message of a failed scheduling attempt, in kube-scheduler's FitError format, e.g.
 * `0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. preemption:
 * 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims
 * found for incoming pod.` Users and tools match on these words, so they follow upstream exactly.
 */

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods'
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling'
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod'
export const PREEMPTION_NEVER = 'not eligible due to preemptionPolicy=Never.'

/** `count reason` per distinct reason, sorted as strings (so "10 x" sorts before "2 y", as in Go). */
export function histogram(reasons: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1)
  return [...counts]
    .map(([reason, n]) => `${n} ${reason}`)
    .sort()
    .join(', ')
}

/**
 * The preemption (PostFilter) part. Nodes rejected for reasons no eviction can fix are "not
 * helpful"; nodes short of resources would be preemption candidates, but as no victims are ever
 * selected here they report what upstream reports when a node has none.
 */
function preemptionMessage(pod: KubeObject, rejections: readonly Rejection[]): string {
  if (podSpec(pod).preemptionPolicy === 'Never') return `preemption: ${PREEMPTION_NEVER}`
  const perNode = rejections.map((r) =>
    r.resolvable ? NO_PREEMPTION_VICTIMS : PREEMPTION_NOT_HELPFUL,
  )
  return `preemption: 0/${rejections.length} nodes are available: ${histogram(perNode)}.`
}

/** The filters' part alone: what the message says when preemption nominated a node. */
export function filterMessage(rejections: readonly Rejection[]): string {
  if (rejections.length === 0) return NO_NODES_AVAILABLE
  return `0/${rejections.length} nodes are available: ${histogram(rejections.flatMap((r) => r.reasons))}.`
}

/** One rejection per node in the cluster (every node was rejected). */
export function unschedulableMessage(
  pod: KubeObject,
  rejections: readonly Rejection[],
  postFilter = preemptionMessage(pod, rejections),
): string {
  if (rejections.length === 0) return NO_NODES_AVAILABLE
  return `${filterMessage(rejections)} ${postFilter}`
}
