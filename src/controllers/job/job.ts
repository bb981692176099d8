import type { KubeObject } from '../../apimachinery/types'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { workingCopy, type PodTemplate } from '../shared/workloads'
import { intOr } from '../../apimachinery/json-value'
import type { Condition } from '../../apimachinery/conditions'

/** The batch/v1 Job fields the controller reads and writes; objects are plain JSON, so every field may be missing. */

export interface JobSpec {
  parallelism?: number | null
  completions?: number | null
  backoffLimit?: number | null
  activeDeadlineSeconds?: number | null
  ttlSecondsAfterFinished?: number | null
  completionMode?: string | null
  suspend?: boolean | null
  selector?: MetaLabelSelector | null
  template?: PodTemplate
  [field: string]: unknown
}

export interface JobStatus {
  conditions?: Condition[]
  startTime?: string
  completionTime?: string
  active?: number
  succeeded?: number
  failed?: number
  ready?: number
  terminating?: number
  completedIndexes?: string
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] }
  [field: string]: unknown
}

export interface Job extends KubeObject {
  spec: JobSpec
  status: JobStatus
}

export const JOB_API_VERSION = 'batch/v1'

/** A Job view over a deep copy of a cached object; spec and status are always objects. */
export function toJob(o: KubeObject): Job {
  return workingCopy<Job>(o, true)
}

/** spec.parallelism, defaulted to 1 as the API server does. */
export function parallelismOf(job: Job): number {
  return Math.max(0, intOr(job.spec.parallelism, 1))
}

/**
 * spec.completions as the API defaults it: both unset means one completion; parallelism alone
 * leaves it unset (a work queue: done once any pod succeeds and none is left running).
 */
export function completionsOf(job: Job): number | undefined {
  if (typeof job.spec.completions === 'number') return job.spec.completions
  return typeof job.spec.parallelism === 'number' ? undefined : 1
}

/** spec.backoffLimit with the API default of 6. */
export function backoffLimitOf(job: Job): number {
  return intOr(job.spec.backoffLimit, 6)
}

export function isIndexed(job: Job): boolean {
  return job.spec.completionMode === 'Indexed' && completionsOf(job) !== undefined
}

export function isSuspended(job: Job): boolean {
  return job.spec.suspend === true
}

/** The Job's terminal condition (Complete or Failed, True), if it has finished. */
export function finishedCondition(job: Job): Condition | undefined {
  return job.status.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  )
}
