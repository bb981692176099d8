import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import {
  jobFinishedCondition,
  SCHEDULED_TIMESTAMP_ANNOTATION,
  type CronJob,
  type CronJobStatus,
  type ObjectReference,
} from './cronjob'
import { parseTime } from '../../apimachinery/meta-time'

export function jobReference(job: KubeObject): ObjectReference {
  return {
    kind: 'Job',
    namespace: job.metadata.namespace,
    name: job.metadata.name,
    uid: job.metadata.uid,
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata.resourceVersion,
  }
}

/**
 * The start of syncCronJob: finished Jobs leave status.active (SawCompletedJob), Jobs that no
 * longer exist leave it (MissingJob), and the latest completion becomes lastSuccessfulTime. A Job
 * this controller created joins the list when it first shows up: the create's result (and uid)
 * is known only from the cache. Other unfinished Jobs it owns (say, from `kubectl create job
 * --from`) stay out, as upstream leaves them out.
 */
export function trackActive(
  cj: CronJob,
  owned: readonly KubeObject[],
): { status: CronJobStatus; events: Action[] } {
  const status: CronJobStatus = { ...cj.status }
  const events: Action[] = []
  const byUid = new Map(owned.map((j) => [j.metadata.uid ?? '', j]))
  let active = [...(status.active ?? [])]
  for (const ref of status.active ?? []) {
    const job = byUid.get(ref.uid ?? '')
    if (!job) {
      active = active.filter((r) => r.uid !== ref.uid)
      events.push({
        type: 'event',
        involved: cj,
        eventType: 'Normal',
        reason: 'MissingJob',
        message: `Active job went missing: ${ref.name}`,
      })
      continue
    }
    const finished = jobFinishedCondition(job)
    if (finished) {
      active = active.filter((r) => r.uid !== ref.uid)
      events.push({
        type: 'event',
        involved: cj,
        eventType: 'Normal',
        reason: 'SawCompletedJob',
        message: `Saw completed job: ${job.metadata.name}, condition: ${finished.type}`,
      })
    }
  }
  for (const job of owned) {
    const listed = active.some((r) => r.uid === job.metadata.uid)
    if (
      !listed &&
      !jobFinishedCondition(job) &&
      job.metadata.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION] &&
      !job.metadata.deletionTimestamp
    )
      active.push(jobReference(job))
    if (jobFinishedCondition(job)?.type !== 'Complete') continue
    const completed = (job.status as { completionTime?: string } | undefined)?.completionTime
    const at = parseTime(completed)
    if (at !== undefined && at > (parseTime(status.lastSuccessfulTime) ?? -Infinity))
      status.lastSuccessfulTime = completed
  }
  if (active.length) status.active = active
  else delete status.active
  return { status, events }
}
