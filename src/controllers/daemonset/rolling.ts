import type { KubeObject } from '../../apimachinery/types'
import { scaledValue } from '../shared/int-or-percent'
import { isPodAvailable } from '../shared/pods'
import { isPodUpdated } from './pod'
import { nodeShouldRunDaemonPod } from './placement'
import { maxUnavailableOf, minReadySecondsOf, type DaemonSet } from './types'

/** The pod at the current revision and the old one on a node; undefined when there are two of either (manage's work). */
function updatedAndOld(
  pods: readonly KubeObject[],
  hash: string,
): { updated?: KubeObject; old?: KubeObject } | undefined {
  let updated: KubeObject | undefined
  let old: KubeObject | undefined
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue
    if (isPodUpdated(pod, hash)) {
      if (updated) return undefined
      updated = pod
    } else {
      if (old) return undefined
      old = pod
    }
  }
  return { updated, old }
}

/** updatedDesiredNodeCounts' maxUnavailable: of the nodes that should run a pod, rounded up, at least 1 when surge is 0. */
export function maxUnavailableCount(ds: DaemonSet, nodes: readonly KubeObject[]): number {
  const desired = nodes.filter((n) => nodeShouldRunDaemonPod(n, ds).shouldRun).length
  const max = scaledValue(maxUnavailableOf(ds), desired, true)
  return max > 0 ? max : 1
}

/**
 * rollingUpdate without surge: the old pods to delete (manage then recreates them at the current
 * revision). Nodes without exactly one pod, or with an updated pod not yet available, count as
 * unavailable; old pods that are not available anyway are always replaced; available old pods are
 * replaced only while fewer than maxUnavailable nodes are unavailable. Nodes go in name order.
 */
export function rollingUpdateDeletes(
  ds: DaemonSet,
  nodes: readonly KubeObject[],
  byNode: ReadonlyMap<string, KubeObject[]>,
  hash: string,
  now: number,
): KubeObject[] {
  const maxUnavailable = maxUnavailableCount(ds, nodes)
  const minReady = minReadySecondsOf(ds)
  let unavailable = 0
  const replace: KubeObject[] = []
  const candidates: KubeObject[] = []
  // Nodes that should run a pod but have none count too (updatedDesiredNodeCounts adds them).
  const considered = new Set(byNode.keys())
  for (const n of nodes)
    if (nodeShouldRunDaemonPod(n, ds).shouldRun) considered.add(n.metadata.name ?? '')
  for (const node of [...considered].sort()) {
    const found = updatedAndOld(byNode.get(node) ?? [], hash)
    if (!found) {
      unavailable++
      continue
    }
    const { updated, old } = found
    if ((!updated && !old) || (updated && old)) unavailable++
    else if (updated) {
      if (!isPodAvailable(updated, minReady, now)) unavailable++
    } else if (old) {
      if (!isPodAvailable(old, minReady, now)) replace.push(old)
      else if (unavailable < maxUnavailable) candidates.push(old)
    }
  }
  const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length)
  return [...replace, ...candidates.slice(0, room)]
}
