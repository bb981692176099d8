import type { KubeObject } from '../../apimachinery/types'
import { workingCopy } from '../shared/workloads'
import type { JobSpec } from '../job/job'
import { intOr } from '../../apimachinery/json-value'
import type { Condition } from '../../apimachinery/conditions'

/** The batch/v1 CronJob fields the controller reads and writes; every field may be missing. */

export interface ObjectReference {
  apiVersion?: string
  kind?: string
  namespace?: string
  name?: string
  uid?: string
  resourceVersion?: string
}

export interface CronJobSpec {
  schedule?: string
  timeZone?: string | null
  startingDeadlineSeconds?: number | null
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace' | string
  suspend?: boolean | null
  jobTemplate?: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }
    spec?: JobSpec
  }
  successfulJobsHistoryLimit?: number | null
  failedJobsHistoryLimit?: number | null
  [field: string]: unknown
}

export interface CronJobStatus {
  active?: ObjectReference[]
  lastScheduleTime?: string
  lastSuccessfulTime?: string
  [field: string]: unknown
}

export interface CronJob extends KubeObject {
  spec: CronJobSpec
  status: CronJobStatus
}

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp'

export function toCronJob(o: KubeObject): CronJob {
  return workingCopy<CronJob>(o, true)
}

/** The history limits with the API defaults (3 successful, 1 failed). */
export function historyLimits(cj: CronJob): { successful: number; failed: number } {
  return {
    successful: intOr(cj.spec.successfulJobsHistoryLimit, 3),
    failed: intOr(cj.spec.failedJobsHistoryLimit, 1),
  }
}

export function concurrencyPolicyOf(cj: CronJob): string {
  return cj.spec.concurrencyPolicy || 'Allow'
}

const conditionsOf = (job: KubeObject): Condition[] =>
  (job.status as { conditions?: Condition[] } | undefined)?.conditions ?? []

/** IsJobFinished's condition: Complete or Failed, True. */
export function jobFinishedCondition(job: KubeObject): Condition | undefined {
  return conditionsOf(job).find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  )
}

export function jobSucceeded(job: KubeObject): boolean {
  return jobFinishedCondition(job)?.type === 'Complete'
}

export function jobFailed(job: KubeObject): boolean {
  return jobFinishedCondition(job)?.type === 'Failed'
}
