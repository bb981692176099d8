import type { KubeObject } from '../../apimachinery/types'
import { podPhase } from '../shared/pods'
import { nodeShouldRunDaemonPod, targetNodeName } from './placement'
import type { DaemonSet } from './types'

/** getNodesToDaemonPods: the set's pods grouped by the node each is for; a pod for no node is left out. */
export function podsByNode(daemonPods: readonly KubeObject[]): Map<string, KubeObject[]> {
  const out = new Map<string, KubeObject[]>()
  for (const pod of daemonPods) {
    const node = targetNodeName(pod)
    if (node === undefined) continue
    out.set(node, [...(out.get(node) ?? []), pod])
  }
  return out
}

/** podByCreationTimestampAndPhase: running before not, then older first, then by name. */
export function oldestFirst(a: KubeObject, b: KubeObject): number {
  const [ra, rb] = [podPhase(a) === 'Running', podPhase(b) === 'Running']
  if (ra !== rb) return ra ? -1 : 1
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '']
  if (ta !== tb) return ta < tb ? -1 : 1
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
}

export interface NodeChanges {
  /** nodes that need a daemon pod, in node-name order */
  create: string[]
  delete: KubeObject[]
}

/**
 * manage's podsShouldBeOnNode over every node: a node that should run a daemon pod and has none
 * gets one; on a node where one may stay, finished pods are deleted and of several running ones
 * only the oldest is kept; a node that may not keep one loses them all. Pods waiting for a node
 * that no longer exists are deleted (getUnscheduledPodsWithoutNode).
 */
export function manageDaemonPods(
  ds: DaemonSet,
  nodes: readonly KubeObject[],
  byNode: ReadonlyMap<string, KubeObject[]>,
): NodeChanges {
  const out: NodeChanges = { create: [], delete: [] }
  const sorted = [...nodes].sort((a, b) =>
    (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
  )
  for (const node of sorted) {
    const name = node.metadata.name ?? ''
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds)
    const daemonPods = byNode.get(name)
    if (shouldRun && !daemonPods?.length) {
      out.create.push(name)
      continue
    }
    if (!daemonPods?.length) continue
    if (shouldContinueRunning) {
      const running: KubeObject[] = []
      for (const pod of daemonPods) {
        if (pod.metadata.deletionTimestamp) continue
        const phase = podPhase(pod)
        if (phase === 'Failed' || phase === 'Succeeded') out.delete.push(pod)
        else running.push(pod)
      }
      if (running.length > 1) out.delete.push(...running.sort(oldestFirst).slice(1))
      continue
    }
    out.delete.push(...daemonPods.filter((p) => !p.metadata.deletionTimestamp))
  }
  const known = new Set(nodes.map((n) => n.metadata.name ?? ''))
  for (const [node, daemonPods] of byNode) {
    if (known.has(node)) continue
    out.delete.push(
      ...daemonPods.filter(
        (p) =>
          !p.metadata.deletionTimestamp && !(p.spec as { nodeName?: string } | undefined)?.nodeName,
      ),
    )
  }
  return out
}
