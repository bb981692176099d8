/** Pure restart rules shared by the runtimes. */
import type { KubeObject } from '../../apimachinery/types'
import type { ContainerState } from './types'

type State = ContainerState['state']

/** The pod's restartPolicy, Always when unset. */
export function restartPolicyOf(pod: KubeObject): string {
  return (pod.spec as { restartPolicy?: string } | undefined)?.restartPolicy ?? 'Always'
}

/**
 * Whether a container that exited is started again: app containers by the pod's restartPolicy,
 * init containers only after a failure and never under `Never`.
 */
export function shouldRestart(
  restartPolicy: string | undefined,
  exitCode: number,
  init: boolean,
): boolean {
  const policy = restartPolicy ?? 'Always'
  if (init) return exitCode !== 0 && policy !== 'Never'
  if (policy === 'Always') return true
  if (policy === 'OnFailure') return exitCode !== 0
  return false
}

/** Go's duration format for whole seconds and minutes, as kubelet prints back-off delays ("10s", "1m20s", "5m0s"). */
export function goDuration(ms: number): string {
  const total = Math.round(ms / 1000)
  if (total < 60) return `${total}s`
  return `${Math.floor(total / 60)}m${total % 60}s`
}

/** The CrashLoopBackOff waiting state while a restart is held back. */
export function crashLoopState(
  delayMs: number,
  container: string,
  pod: { name?: string; namespace?: string; uid?: string },
): State {
  return {
    waiting: {
      reason: 'CrashLoopBackOff',
      message: `back-off ${goDuration(delayMs)} restarting failed container=${container} pod=${pod.name}_${pod.namespace}(${pod.uid})`,
    },
  }
}

/** What a container restarted by a new agent reports about the instance the old agent ran. */
export function lostInstance(finishedAt: string, startedAt?: string): State {
  const terminated: Extract<State, { terminated: unknown }>['terminated'] = {
    exitCode: 137,
    reason: 'ContainerStatusUnknown',
    message: 'The container could not be located when the pod was terminated',
    finishedAt,
  }
  if (startedAt) terminated.startedAt = startedAt
  return { terminated }
}
