/** Tables for the batch group: Job and CronJob. */
import type { KubeObject } from '../apimachinery/types'
import { column, objectAge, objectName, type Printer, workloadColumns } from './columns'
import { age, humanDuration } from './duration'
import {
  containerCells,
  count,
  formatLabelSelector,
  formatOptionalBool,
  list,
  type ContainerLike,
  type LabelSelector,
} from './format'
import { parseTime } from '../apimachinery/meta-time'

interface JobSpec {
  completions?: number | null
  parallelism?: number | null
  selector?: LabelSelector
  template?: { spec?: { containers?: ContainerLike[] } }
}

interface Job extends KubeObject {
  spec?: JobSpec
  status?: {
    succeeded?: number
    startTime?: string
    completionTime?: string
    conditions?: Array<{ type?: string; status?: string }>
  }
}

interface CronJob extends KubeObject {
  spec?: {
    schedule?: string
    timeZone?: string | null
    suspend?: boolean | null
    jobTemplate?: { spec?: JobSpec }
  }
  status?: { active?: unknown[]; lastScheduleTime?: string | null }
}

/** Whether the condition of this type is present and True; the first of a type decides. */
function hasCondition(job: Job, type: string): boolean {
  const condition = list(job.status?.conditions).find((c) => c.type === type)
  return condition?.status === 'True'
}

export function jobStatus(job: Job): string {
  if (hasCondition(job, 'Complete')) return 'Complete'
  if (hasCondition(job, 'Failed')) return 'Failed'
  if (job.metadata?.deletionTimestamp) return 'Terminating'
  if (hasCondition(job, 'Suspended')) return 'Suspended'
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget'
  return 'Running'
}

/** `succeeded/completions`; a job without completions needs one success (of N parallel pods). */
export function jobCompletions(job: Job): string {
  const spec = job.spec ?? {}
  const succeeded = count(job.status?.succeeded)
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`
  const parallelism = count(spec.parallelism)
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`
}

/** Run time so far, or start to completion once done; empty before the job starts. */
export function jobDuration(job: Job, now: number): string {
  const start = parseTime(job.status?.startTime)
  if (start === undefined) return ''
  const end = parseTime(job.status?.completionTime)
  return humanDuration((end ?? now) - start)
}

export const jobPrinter: Printer = {
  columns: workloadColumns(
    [
      column('Status', 'string', 'Status of the job.'),
      column(
        'Completions',
        'string',
        'The number of pods which reached phase Succeeded, of those required.',
      ),
      column('Duration', 'string', 'Time required to complete the job.'),
    ],
    'A label query over pods that should match the pod count.',
  ),
  cells(obj, now) {
    const job = obj as Job
    const [names, images] = containerCells(job.spec?.template?.spec?.containers)
    return [
      objectName(job),
      jobStatus(job),
      jobCompletions(job),
      jobDuration(job, now),
      objectAge(job, now),
      names,
      images,
      formatLabelSelector(job.spec?.selector),
    ]
  },
}

export const cronJobPrinter: Printer = {
  columns: workloadColumns(
    [
      column('Schedule', 'string', 'The schedule in Cron format.'),
      column('Timezone', 'string', 'The time zone the schedule is interpreted in.'),
      column('Suspend', 'boolean', 'Whether the controller suspends subsequent executions.'),
      column('Active', 'integer', 'The number of currently running jobs.'),
      column('Last Schedule', 'string', 'Time since a job was last successfully scheduled.'),
    ],
    'A label query over pods that should match the pod count.',
  ),
  cells(obj, now) {
    const cj = obj as CronJob
    const spec = cj.spec ?? {}
    const jobSpec = spec.jobTemplate?.spec ?? {}
    const [names, images] = containerCells(jobSpec.template?.spec?.containers)
    const last = cj.status?.lastScheduleTime
    return [
      objectName(cj),
      spec.schedule ?? '',
      spec.timeZone ? spec.timeZone : '<none>',
      formatOptionalBool(spec.suspend),
      list(cj.status?.active).length,
      last ? age(last, now) : '<none>',
      objectAge(cj, now),
      names,
      images,
      formatLabelSelector(jobSpec.selector),
    ]
  },
}
