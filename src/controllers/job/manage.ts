import type { KubeObject } from '../../apimachinery/types'
import { podsToDelete } from '../replicaset/pods-to-delete'
import { completionsOf, isIndexed, parallelismOf, type Job } from './job'
import { pendingIndexes } from './indexes'
import { newIndexedJobPod, newJobPod } from './new-pod'
import { BURST_REPLICAS } from '../runtime/burst'

export interface PodChanges {
  creates: KubeObject[]
  deletes: KubeObject[]
  /** whether more were wanted than one pass makes (BURST_REPLICAS): the key is to be taken again at once */
  more?: boolean
}

/**
 * manageJob: how many pods should be running now. With completions, no more than are still
 * needed and no more than parallelism; without (a work queue), parallelism until any pod has
 * succeeded, and after that none beyond those already running.
 */
export function wantActive(job: Job, active: number, succeeded: number): number {
  const parallelism = parallelismOf(job)
  const completions = completionsOf(job)
  if (completions === undefined) return succeeded > 0 ? active : parallelism
  return Math.max(0, Math.min(parallelism, completions - succeeded))
}

export function managePods(
  job: Job,
  active: readonly KubeObject[],
  succeeded: number,
  done: ReadonlySet<number>,
  now: number,
): PodChanges {
  const diff = active.length - wantActive(job, active.length, succeeded)
  const more = Math.abs(diff) > BURST_REPLICAS
  if (diff > 0)
    return {
      creates: [],
      deletes: podsToDelete(active, [], Math.min(diff, BURST_REPLICAS), now),
      more,
    }
  if (diff === 0) return { creates: [], deletes: [] }
  const count = Math.min(-diff, BURST_REPLICAS)
  if (isIndexed(job))
    return {
      creates: pendingIndexes(completionsOf(job)!, done, active, count).map((i) =>
        newIndexedJobPod(job, i),
      ),
      deletes: [],
      more,
    }
  return { creates: Array.from({ length: count }, () => newJobPod(job)), deletes: [], more }
}
