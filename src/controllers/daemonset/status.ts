import type { KubeObject } from '../../apimachinery/types'
import { isPodAvailable, isPodReady } from '../shared/pods'
import { generationOf } from '../shared/workloads'
import { oldestFirst } from './manage'
import { isPodUpdated } from './pod'
import { nodeShouldRunDaemonPod } from './placement'
import { minReadySecondsOf, statusOf, type DaemonSet, type DaemonSetStatus } from './types'
import { jsonEqual } from '../../apimachinery/json-value'

/**
 * updateDaemonSetStatus: over every node, those that should run a daemon pod are desired, and
 * scheduled when they have one; the oldest pod of each such node counts for ready, available and
 * updated; nodes that have a pod but should not are misscheduled.
 */
export function computeStatus(
  ds: DaemonSet,
  nodes: readonly KubeObject[],
  byNode: ReadonlyMap<string, KubeObject[]>,
  hash: string,
  collisionCount: number,
  now: number,
): DaemonSetStatus {
  let desired = 0
  let current = 0
  let misscheduled = 0
  let ready = 0
  let available = 0
  let updated = 0
  const minReady = minReadySecondsOf(ds)
  for (const node of nodes) {
    const pods = byNode.get(node.metadata.name ?? '') ?? []
    const { shouldRun } = nodeShouldRunDaemonPod(node, ds)
    if (!shouldRun) {
      if (pods.length) misscheduled++
      continue
    }
    desired++
    if (!pods.length) continue
    current++
    const pod = [...pods].sort(oldestFirst)[0]!
    if (isPodReady(pod)) {
      ready++
      if (isPodAvailable(pod, minReady, now)) available++
    }
    if (isPodUpdated(pod, hash)) updated++
  }
  const status: DaemonSetStatus = {
    ...statusOf(ds),
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
    updatedNumberScheduled: updated,
    numberAvailable: available,
    numberUnavailable: desired - available,
    observedGeneration: generationOf(ds),
    collisionCount,
  }
  // Go's omitempty drops these when zero.
  for (const k of [
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'observedGeneration',
  ] as const)
    if (!status[k]) delete status[k]
  if (!collisionCount) delete status.collisionCount
  return status
}

export function statusChanged(ds: DaemonSet, next: DaemonSetStatus): boolean {
  return !jsonEqual(statusOf(ds), next)
}
