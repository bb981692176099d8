import type { NodeUsage } from './node-load'
import type { ResourceList } from './requests'

/**
 * Scoring of the nodes that passed every filter. Two of kube-scheduler's default scores, with its
 * plugin weights: NodeResourcesFit's LeastAllocated (weight 1) and a spread of a controller's
 * replicas standing in for PodTopologySpread's hostname default constraint (weight 2).
 */

export const MAX_NODE_SCORE = 100
export const LEAST_ALLOCATED_WEIGHT = 1
export const SPREAD_WEIGHT = 2

const scoredResources = ['cpu', 'memory'] as const

/**
 * Average over cpu and memory of the share left free once the pod is added, 0–100. Requests are the
 * non-zero ones (unset cpu/memory count as 100m/200Mi) so that best-effort pods still spread.
 */
export function leastAllocatedScore(
  request: ResourceList,
  allocatable: ResourceList,
  usage: NodeUsage,
): number {
  let total = 0
  for (const r of scoredResources) {
    const capacity = allocatable[r] ?? 0
    const requested = (usage.nonZeroRequested[r] ?? 0) + (request[r] ?? 0)
    total +=
      capacity === 0 || requested > capacity
        ? 0
        : Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity)
  }
  return Math.floor(total / scoredResources.length)
}

/**
 * 0–100 per node: 100 where the fewest replicas of the pod's controller already run, falling
 * linearly to 0 on the node that has the most. A pod with no controller scores 100 everywhere.
 */
export function spreadScores(counts: readonly number[]): number[] {
  const max = Math.max(0, ...counts)
  return counts.map((c) =>
    max === 0 ? MAX_NODE_SCORE : Math.floor((MAX_NODE_SCORE * (max - c)) / max),
  )
}

export interface FeasibleNode {
  name: string
  allocatable: ResourceList
  usage: NodeUsage
}

export interface NodeScore {
  name: string
  score: number
}

export function scoreNodes(
  nodes: readonly FeasibleNode[],
  request: ResourceList,
  owner: string | undefined,
): NodeScore[] {
  const spread = spreadScores(nodes.map((n) => (owner ? (n.usage.byOwner.get(owner) ?? 0) : 0)))
  return nodes.map((n, i) => ({
    name: n.name,
    score:
      LEAST_ALLOCATED_WEIGHT * leastAllocatedScore(request, n.allocatable, n.usage) +
      SPREAD_WEIGHT * spread[i],
  }))
}

/** The highest score; equal scores go to the smallest node name so that a decision is reproducible. */
export function selectNode(scores: readonly NodeScore[]): string | undefined {
  let best: NodeScore | undefined
  for (const s of scores) {
    if (!best || s.score > best.score || (s.score === best.score && s.name < best.name)) best = s
  }
  return best?.name
}
