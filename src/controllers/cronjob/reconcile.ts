import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { isAlreadyExists, refusedCreate } from '../runtime/refusal'
import { isControlledBy } from '../../apimachinery/owner-refs'
import { ownedBy } from '../runtime/lookups'
import { trackActive } from './active'
import { nextAfter } from '../../apimachinery/cron/next'
import { concurrencyPolicyOf, toCronJob } from './cronjob'
import { historyCleanup } from './history'
import { jobFromTemplate, jobNameFor } from './job-from-template'
import { dueActivation, MANY_MISSED, scheduleOf } from './schedule'
import { jsonEqual } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'
import { splitKey } from '../../apimachinery/object-key'
import { cronJobs, jobs } from '../resources'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'

/** Come back just after the next activation, as upstream's nextScheduleTimeDuration pads it. */
const REQUEUE_PAD_MS = 100

/**
 * syncCronJob, as a checklist: track the owned Jobs in status.active and drop the oldest finished
 * ones beyond the history limits; then, unless the CronJob is deleted, suspended or its schedule
 * unusable, find the most recent activation not yet started. Too late for startingDeadlineSeconds
 * → MissSchedule; already created → nothing; Forbid with a Job running → JobAlreadyActive;
 * Replace → delete the running Jobs first; then create the Job and record lastScheduleTime. The
 * pass comes back just after the next activation.
 */
export function reconcileCronJob(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(cronJobs, namespace, name)
  if (!stored) return { actions: [] }
  const cj = toCronJob(stored)
  if (cj.metadata.deletionTimestamp) return { actions: [] }

  const owned = cj.metadata.uid
    ? ownedBy(cache, jobs, cj.metadata.uid).filter(
        (j) => j.metadata.namespace === namespace && isControlledBy(j, cj),
      )
    : []
  const tracked = trackActive(cj, owned)
  const status = tracked.status
  const actions: Action[] = [...tracked.events]
  // The error the Job's create got (an AlreadyExists is the Job found, not reported).
  const failedJob = refusedCreate(refused, jobs)
  if (failedJob && !isAlreadyExists(failedJob.status))
    actions.push(event(cj, 'Warning', 'FailedCreate', `Error creating job: ${failedJob.message}`))
  const cleanup = historyCleanup(cj, owned)
  const creates: Action[] = []
  const after: Action[] = []
  let requeueAfterMs: number | undefined

  const parsed = scheduleOf(cj)
  if (!parsed.ok) {
    after.push(event(cj, 'Warning', parsed.reason, parsed.message))
  } else if (cj.spec.suspend !== true) {
    const { schedule, zone } = parsed
    const due = dueActivation(cj, schedule, zone, now)
    if (due.missed > MANY_MISSED)
      after.push(
        event(
          cj,
          'Warning',
          'TooManyMissedTimes',
          'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
        ),
      )
    const scheduled = due.scheduled
    const sds = cj.spec.startingDeadlineSeconds
    const jobName = scheduled === undefined ? '' : jobNameFor(cj, scheduled)
    if (scheduled === undefined) {
      // nothing is due yet
    } else if (typeof sds === 'number' && scheduled + sds * 1000 < now) {
      after.push(
        event(
          cj,
          'Warning',
          'MissSchedule',
          `Missed scheduled time to start a job: ${formatTime(scheduled)}`,
        ),
      )
    } else if (
      cache.get(jobs, namespace, jobName) ||
      status.active?.some((r) => r.name === jobName)
    ) {
      // Created before (perhaps by a pass whose status write was lost): record it as scheduled.
      status.lastScheduleTime = formatTime(scheduled)
    } else if (concurrencyPolicyOf(cj) === 'Forbid' && status.active?.length) {
      after.push(
        event(
          cj,
          'Normal',
          'JobAlreadyActive',
          'Not starting job because prior execution is running and concurrency policy is Forbid',
        ),
      )
    } else {
      if (concurrencyPolicyOf(cj) === 'Replace') {
        for (const ref of status.active ?? []) {
          creates.push(
            {
              type: 'delete',
              resource: jobs,
              namespace,
              name: ref.name ?? '',
              preconditions: { uid: ref.uid },
              propagationPolicy: 'Background',
            },
            event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${ref.name}`),
          )
        }
        delete status.active
      }
      creates.push({ type: 'create', resource: jobs, object: jobFromTemplate(cj, scheduled, zone) })
      after.push(event(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`))
      status.lastScheduleTime = formatTime(scheduled)
    }
    const next = nextAfter(schedule, now, zone)
    if (next !== undefined) requeueAfterMs = next - now + REQUEUE_PAD_MS
  }

  actions.push(...cleanup.actions, ...creates)
  if (!jsonEqual(cj.status, status)) actions.push(statusWrite(cronJobs, stored, status))
  actions.push(...after)
  return requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs }
}
