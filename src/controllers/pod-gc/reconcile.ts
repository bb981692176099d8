import type { KubeObject } from '../../apimachinery/types'
import { nodes, pods } from '../resources'
import type { Action, Cache, Outcome } from '../runtime/types'
import { markFailedAndDelete, nodeGoneCondition } from './actions'
import { isOutOfService } from './nodes'
import { byEvictionAndAge, isForceDeleted, isTerminated, nodeNameOf } from './pods'
import { quarantineOf, released } from './quarantine'
import { nothingRemembered, withMemory, type Remembered } from '../runtime/memory'

/** The key of the sweep that keeps terminated pods under the threshold (pod keys always hold a slash). */
export const TERMINATED_KEY = 'terminated'

/**
 * Upstream's gcTerminated: when more pods have terminated than the threshold allows, the excess
 * goes, evicted and oldest first. Pods of the excess already being deleted are only waiting for
 * their finalizers and are not deleted again.
 */
export function collectTerminated(cache: Cache, threshold: number, now: number): Action[] {
  if (threshold <= 0) return []
  const terminated = cache.list(pods).filter(isTerminated)
  const excess = terminated.length - threshold
  if (excess <= 0) return []
  return terminated
    .sort(byEvictionAndAge)
    .slice(0, excess)
    .filter((p) => !p.metadata.deletionTimestamp)
    .flatMap((p) => markFailedAndDelete(p, now))
}

/** Whether a pod may need collecting on its own: unscheduled and terminating, on a missing node, or terminating on an out-of-service node. */
export function podNeedsLook(pod: KubeObject, cache: Cache): boolean {
  if (isForceDeleted(pod)) return false
  const nodeName = nodeNameOf(pod)
  if (!nodeName) return !!pod.metadata.deletionTimestamp
  const node = cache.get(nodes, undefined, nodeName)
  if (!node) return true
  return !!pod.metadata.deletionTimestamp && isOutOfService(node)
}

/**
 * One pod on its own (upstream's gcOrphaned, gcUnscheduledTerminating and gcTerminating): a pod
 * bound to a node that stays missing for the quarantine is marked Failed and force-deleted, as is a
 * terminating pod that was never scheduled or whose node is out of service. A pod already
 * force-deleted is only waiting for its finalizers and is left alone.
 */
export function collectPod(
  key: string,
  cache: Cache,
  now: number,
  quarantineMs: number,
  memory: Remembered = nothingRemembered,
): Outcome {
  const slash = key.indexOf('/')
  const pod = slash > 0 ? cache.get(pods, key.slice(0, slash), key.slice(slash + 1)) : undefined
  if (!pod) return { actions: [] }
  const deleting = !!pod.metadata.deletionTimestamp
  const forced = isForceDeleted(pod)
  const nodeName = nodeNameOf(pod)
  if (!nodeName) return { actions: deleting && !forced ? markFailedAndDelete(pod, now) : [] }
  const node = cache.get(nodes, undefined, nodeName)
  if (node)
    return withMemory(
      { actions: deleting && !forced && isOutOfService(node) ? markFailedAndDelete(pod, now) : [] },
      released(memory, nodeName),
    )
  if (forced) return { actions: [] }
  const quarantine = quarantineOf(memory, nodeName, now, quarantineMs)
  if (quarantine.remainingMs > 0)
    return withMemory({ actions: [], requeueAfterMs: quarantine.remainingMs }, quarantine.memory)
  return withMemory(
    { actions: markFailedAndDelete(pod, now, nodeGoneCondition) },
    quarantine.memory,
  )
}
