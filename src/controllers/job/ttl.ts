import type { Outcome } from '../runtime/types'
import type { Job } from './job'
import { parseTime } from '../../apimachinery/meta-time'
import { jobs } from '../resources'
import type { Condition } from '../../apimachinery/conditions'

/**
 * The TTL-after-finished controller's decision for a finished Job: once ttlSecondsAfterFinished
 * has passed since it finished (completionTime, or the Failed condition's transition), delete it
 * in the background so the garbage collector takes its pods; until then, come back at expiry.
 */
export function ttlOutcome(job: Job, finished: Condition, now: number): Outcome {
  const ttl = job.spec.ttlSecondsAfterFinished
  if (typeof ttl !== 'number' || ttl < 0) return { actions: [] }
  const finishedAt = parseTime(job.status.completionTime) ?? parseTime(finished.lastTransitionTime)
  if (finishedAt === undefined) return { actions: [] }
  const expireAt = finishedAt + ttl * 1000
  if (now < expireAt) return { actions: [], requeueAfterMs: expireAt - now }
  return {
    actions: [
      {
        type: 'delete',
        resource: jobs,
        namespace: job.metadata.namespace,
        name: job.metadata.name ?? '',
        preconditions: { uid: job.metadata.uid },
        propagationPolicy: 'Background',
      },
    ],
  }
}
