import type { KubeObject } from '../../apimachinery/types'
import { podFinishedAt } from './pods'

/** DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff. */
export const POD_FAILURE_BACKOFF_MS = 10_000
export const MAX_POD_FAILURE_BACKOFF_MS = 360_000

/**
 * How long to hold back replacement pods after failures, as upstream's backoff record does: the
 * delay doubles with each failure since the last success, from the most recent failure, so a
 * crashing workload does not spin. Zero when pods may be created now.
 */
export function failureBackoffRemainingMs(
  succeeded: readonly KubeObject[],
  failed: readonly KubeObject[],
  now: number,
): number {
  const lastSuccess = Math.max(0, ...succeeded.map(podFinishedAt))
  const since = failed.map(podFinishedAt).filter((t) => t >= lastSuccess)
  if (!since.length) return 0
  const delay = Math.min(
    POD_FAILURE_BACKOFF_MS * 2 ** (since.length - 1),
    MAX_POD_FAILURE_BACKOFF_MS,
  )
  return Math.max(0, Math.max(...since) + delay - now)
}
