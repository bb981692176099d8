import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import { historyLimits, jobFailed, jobSucceeded, type CronJob } from './cronjob'
import { parseTime } from '../../apimachinery/meta-time'
import { jobs } from '../resources'

const startOf = (j: KubeObject) =>
  parseTime((j.status as { startTime?: string } | undefined)?.startTime) ??
  parseTime(j.metadata.creationTimestamp) ??
  0

/** The oldest of the finished Jobs beyond the limit (byJobStartTime: by start time, then name). */
function oldestBeyond(finished: KubeObject[], limit: number): KubeObject[] {
  if (finished.length <= limit) return []
  const sorted = [...finished].sort(
    (a, b) =>
      startOf(a) - startOf(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1),
  )
  return sorted.slice(0, finished.length - Math.max(0, limit))
}

/**
 * cleanupFinishedJobs: keeps successfulJobsHistoryLimit succeeded and failedJobsHistoryLimit failed
 * Jobs, deleting the oldest others in the background (their pods go with them).
 */
export function historyCleanup(
  cj: CronJob,
  owned: readonly KubeObject[],
): { deleted: Set<string>; actions: Action[] } {
  const limits = historyLimits(cj)
  const victims = [
    ...oldestBeyond(owned.filter(jobSucceeded), limits.successful),
    ...oldestBeyond(owned.filter(jobFailed), limits.failed),
  ]
  const actions: Action[] = []
  for (const j of victims) {
    actions.push(
      {
        type: 'delete',
        resource: jobs,
        namespace: j.metadata.namespace,
        name: j.metadata.name ?? '',
        preconditions: { uid: j.metadata.uid },
        propagationPolicy: 'Background',
      },
      {
        type: 'event',
        involved: cj,
        eventType: 'Normal',
        reason: 'SuccessfulDelete',
        message: `Deleted job ${j.metadata.name}`,
      },
    )
  }
  return { deleted: new Set(victims.map((j) => j.metadata.uid ?? '')), actions }
}
