import type { KubeObject } from '../../apimachinery/types'
import { podPhase } from '../shared/pods'
import type { Job } from './job'
import { asRecord } from '../../apimachinery/json-value'
import { parseTime } from '../../apimachinery/meta-time'

export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index'

/** The Job's pods sorted by what the accounting does with them. */
export interface JobPods {
  /** running or pending, not being deleted */
  active: KubeObject[]
  succeeded: KubeObject[]
  failed: KubeObject[]
  /** being deleted and not yet finished */
  terminating: KubeObject[]
}

/**
 * The pods the Job controls, by controller reference uid. Orphans matching the selector are not
 * adopted: the store gives every Job a selector on its own uid, so only a manualSelector Job could
 * meet one.
 */
export function classifyPods(job: Job, podsInNamespace: readonly KubeObject[]): JobPods {
  const out: JobPods = { active: [], succeeded: [], failed: [], terminating: [] }
  const uid = job.metadata.uid
  for (const pod of podsInNamespace) {
    if (!uid || !pod.metadata.ownerReferences?.some((r) => r.controller === true && r.uid === uid))
      continue
    const phase = podPhase(pod)
    if (phase === 'Succeeded') out.succeeded.push(pod)
    else if (phase === 'Failed') out.failed.push(pod)
    else if (pod.metadata.deletionTimestamp) out.terminating.push(pod)
    else out.active.push(pod)
  }
  return out
}

/** The completion index an Indexed Job's pod carries, or undefined when missing or out of range. */
export function completionIndexOf(pod: KubeObject, completions: number): number | undefined {
  const v = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION]
  if (v === undefined || !/^\d+$/.test(v)) return undefined
  const n = Number(v)
  return n < completions ? n : undefined
}

/** When a finished pod stopped: its last container's finishedAt, else its last condition change, else its creation. */
export function podFinishedAt(pod: KubeObject): number {
  let latest: number | undefined
  const statuses = asRecord(pod.status).containerStatuses
  if (Array.isArray(statuses)) {
    for (const s of statuses) {
      const at = parseTime(asRecord(asRecord(asRecord(s).state).terminated).finishedAt)
      if (at !== undefined && (latest === undefined || at > latest)) latest = at
    }
  }
  if (latest !== undefined) return latest
  const conditions = asRecord(pod.status).conditions
  if (Array.isArray(conditions)) {
    for (const c of conditions) {
      const at = parseTime(asRecord(c).lastTransitionTime)
      if (at !== undefined && (latest === undefined || at > latest)) latest = at
    }
  }
  return latest ?? parseTime(pod.metadata.creationTimestamp) ?? 0
}
