import type { KubeObject } from '../../apimachinery/types'
import type { NodeLoad } from './filter'
import { nodeNameOf, podKey } from './pods'
import { nominatedNodeOf, podPriority } from './preemption'
import { podRequests } from './requests'

/**
 * What pods nominated to each node by an earlier preemption will take there, counted against any
 * pod of no higher priority (addNominatedPods): the room preemption made is kept for the preemptor
 * rather than taken by whichever pending pod is tried first.
 */
export function nominatedLoads(
  pod: KubeObject,
  allPods: readonly KubeObject[],
): Map<string, NodeLoad> {
  const out = new Map<string, NodeLoad>()
  const priority = podPriority(pod)
  const self = podKey(pod)
  for (const p of allPods) {
    const node = nominatedNodeOf(p)
    if (
      !node ||
      nodeNameOf(p) !== '' ||
      p.metadata.deletionTimestamp ||
      podPriority(p) < priority ||
      podKey(p) === self
    )
      continue
    const load = out.get(node) ?? { requested: {}, podCount: 0 }
    for (const [k, v] of Object.entries(podRequests(p)))
      load.requested[k] = (load.requested[k] ?? 0) + v
    load.podCount++
    out.set(node, load)
  }
  return out
}

/** A node's load with what is nominated to it added. */
export function plusNominated<T extends NodeLoad>(usage: T, nominated: NodeLoad | undefined): T {
  if (!nominated) return usage
  const requested = { ...usage.requested }
  for (const [k, v] of Object.entries(nominated.requested)) requested[k] = (requested[k] ?? 0) + v
  return { ...usage, requested, podCount: usage.podCount + nominated.podCount }
}
