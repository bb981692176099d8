import type { KubeObject } from '../../apimachinery/types'
import { isPodAvailable, isPodReady, podPhase } from '../shared/pods'

/** The pod predicates of stateful_set_utils.go. */

export function isTerminating(pod: KubeObject): boolean {
  return !!pod.metadata.deletionTimestamp
}

/** isFailed / isSucceeded: a finished pod is replaced, as a StatefulSet's pods must always run. */
export function isFinished(pod: KubeObject): boolean {
  const phase = podPhase(pod)
  return phase === 'Failed' || phase === 'Succeeded'
}

export function isRunningAndReady(pod: KubeObject): boolean {
  return podPhase(pod) === 'Running' && isPodReady(pod)
}

export function isRunningAndAvailable(
  pod: KubeObject,
  minReadySeconds: number,
  now: number,
): boolean {
  return podPhase(pod) === 'Running' && isPodAvailable(pod, minReadySeconds, now)
}

/** isHealthy: running, ready and not being deleted. */
export function isHealthy(pod: KubeObject): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod)
}
