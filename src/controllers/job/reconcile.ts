import type { KubeObject } from '../../apimachinery/types'
import { jobs, pods } from '../resources'
import { deleteAction } from '../replicaset/replicas'
import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { memoryChanges, nothingRemembered, withMemory, type Remembered } from '../runtime/memory'
import { refusedCreate } from '../runtime/refusal'
import { takeBurst } from '../runtime/burst'
import { ownedBy } from '../runtime/lookups'
import { isPodReady } from '../shared/pods'
import { createdPodEvent, createdPods, requestedCreates } from '../shared/created-pods'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'
import { failureBackoffRemainingMs } from './backoff'
import {
  backoffLimitExceeded,
  completionsReached,
  deadlineExceeded,
  FAILURE_TARGET,
  interim,
  isTrue,
  SUCCESS_CRITERIA_MET,
  withCondition,
  type Finish,
} from './conditions'
import { formatIndexes, succeededIndexes } from './indexes'
import {
  backoffLimitOf,
  completionsOf,
  finishedCondition,
  isIndexed,
  isSuspended,
  toJob,
  type Job,
  type JobStatus,
} from './job'
import { managePods, type PodChanges } from './manage'
import { classifyPods, type JobPods } from './pods'
import { ttlOutcome } from './ttl'
import { jsonEqual } from '../../apimachinery/json-value'
import { formatTime, parseTime } from '../../apimachinery/meta-time'
import { splitKey } from '../../apimachinery/object-key'

/** Every active pod deleted (a finished or suspended Job), BURST_REPLICAS a pass. */
function deleteAll(active: readonly KubeObject[]): PodChanges {
  const { taken, more } = takeBurst(active)
  return { creates: [], deletes: taken, more }
}

/** Why the Job fails now, if it does: too many failed pods, or active past its deadline. */
function failureOf(
  job: Job,
  failed: number,
  startTime: number | undefined,
  now: number,
): Finish | undefined {
  if (failed > backoffLimitOf(job)) return backoffLimitExceeded
  const deadline = job.spec.activeDeadlineSeconds
  if (typeof deadline === 'number' && startTime !== undefined && now - startTime >= deadline * 1000)
    return deadlineExceeded
  return undefined
}

function isComplete(job: Job, p: JobPods, succeeded: number): boolean {
  const completions = completionsOf(job)
  if (completions === undefined)
    return succeeded > 0 && p.active.length === 0 && p.terminating.length === 0
  return succeeded >= completions
}

const minDefined = (...v: (number | undefined)[]) => {
  const d = v.filter((x): x is number => x !== undefined)
  return d.length ? Math.min(...d) : undefined
}

/**
 * syncJob, as a checklist: a gone or deleted Job needs nothing; a finished one only waits for its
 * TTL. Otherwise count its pods (succeeded and failed from the finished pods still present, never
 * below what status already reports), then decide in order: fail (backoff limit, deadline), succeed
 * (completions), suspend, or create and delete pods toward the wanted number of active ones. A
 * Job that fails or succeeds first gets the interim FailureTarget or SuccessCriteriaMet condition
 * and its remaining pods deleted; Failed or Complete follows once none is left running. Status is
 * written only when it changed; the pass comes back for the deadline or the failure backoff. The
 * creates asked for are remembered under the key, so that the next pass names the pods they made
 * (see shared/created-pods.ts).
 */
export function reconcileJob(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
  memory: Remembered = nothingRemembered,
): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(jobs, namespace, name)
  if (!stored) return withMemory({ actions: [] }, memoryChanges(memory, [[key, undefined]]))
  const job = toJob(stored)
  if (job.metadata.deletionTimestamp) return { actions: [] }
  const finished = finishedCondition(job)
  if (finished) return ttlOutcome(job, finished, now)

  const owned = job.metadata.uid
    ? ownedBy(cache, pods, job.metadata.uid).filter((pod) => pod.metadata.namespace === namespace)
    : []
  const p = classifyPods(job, owned)
  const actions: Action[] = []
  for (const pod of createdPods(memory, key, job, owned)) actions.push(createdPodEvent(job, pod))
  // As createPods: the error a pod create got, on the Job.
  const failedPod = refusedCreate(refused, pods)
  if (failedPod)
    actions.push(event(job, 'Warning', 'FailedCreate', `Error creating: ${failedPod.message}`))

  const prev = job.status
  const completions = completionsOf(job)
  const done = isIndexed(job) ? succeededIndexes(p.succeeded, completions!) : new Set<number>()
  const succeeded = Math.max(prev.succeeded ?? 0, isIndexed(job) ? done.size : p.succeeded.length)
  const failed = Math.max(prev.failed ?? 0, p.failed.length)
  const suspended = isSuspended(job)
  let conditions = prev.conditions ?? []
  let startTime = prev.startTime
  let completionTime: string | undefined
  let changes: PodChanges = { creates: [], deletes: [] }
  let requeueAfterMs: number | undefined
  const finalEvents: Action[] = []

  const failure =
    interim(conditions, FAILURE_TARGET) ?? failureOf(job, failed, parseTime(startTime), now)
  const success =
    !failure &&
    (interim(conditions, SUCCESS_CRITERIA_MET) ??
      (isComplete(job, p, succeeded) ? completionsReached : undefined))
  if (failure || success) {
    const [interimType, finalType] = failure
      ? [FAILURE_TARGET, 'Failed']
      : [SUCCESS_CRITERIA_MET, 'Complete']
    const finish = (failure || success) as Finish
    conditions = withCondition(conditions, interimType, 'True', finish, now)
    changes = deleteAll(p.active)
    if (!p.active.length && !p.terminating.length) {
      conditions = withCondition(conditions, finalType, 'True', finish, now)
      if (failure) finalEvents.push(event(job, 'Warning', finish.reason, finish.message))
      else {
        completionTime = formatTime(now)
        finalEvents.push(event(job, 'Normal', 'Completed', 'Job completed'))
      }
    }
  } else if (suspended) {
    changes = deleteAll(p.active)
    if (!isTrue(conditions, 'Suspended')) {
      conditions = withCondition(
        conditions,
        'Suspended',
        'True',
        { reason: 'JobSuspended', message: 'Job suspended' },
        now,
      )
      finalEvents.push(event(job, 'Normal', 'Suspended', 'Job suspended'))
    }
  } else {
    if (isTrue(conditions, 'Suspended')) {
      // Resuming restarts the clock activeDeadlineSeconds runs against.
      conditions = withCondition(
        conditions,
        'Suspended',
        'False',
        { reason: 'JobResumed', message: 'Job resumed' },
        now,
      )
      startTime = formatTime(now)
      finalEvents.push(event(job, 'Normal', 'Resumed', 'Job resumed'))
    }
    startTime ??= formatTime(now)
    const backoff = failureBackoffRemainingMs(p.succeeded, p.failed, now)
    changes = managePods(job, p.active, succeeded, done, now)
    if (backoff > 0 && changes.creates.length) {
      changes = { creates: [], deletes: changes.deletes }
      requeueAfterMs = backoff
    }
    const deadline = job.spec.activeDeadlineSeconds
    if (typeof deadline === 'number')
      requeueAfterMs = minDefined(
        requeueAfterMs,
        Math.max(0, parseTime(startTime)! + deadline * 1000 - now),
      )
  }

  const deleted = new Set(changes.deletes.map((d) => d.metadata.uid))
  const status: JobStatus = {
    ...prev,
    conditions,
    uncountedTerminatedPods: prev.uncountedTerminatedPods ?? {},
  }
  if (startTime) status.startTime = startTime
  if (completionTime) status.completionTime = completionTime
  const active = p.active.length - changes.deletes.length + changes.creates.length
  const setCount = (field: 'active' | 'succeeded' | 'failed', n: number) => {
    if (n > 0) status[field] = n
    else delete status[field]
  }
  setCount('active', active)
  setCount('succeeded', succeeded)
  setCount('failed', failed)
  status.ready = p.active.filter((pod) => !deleted.has(pod.metadata.uid) && isPodReady(pod)).length
  status.terminating = p.terminating.length + changes.deletes.length
  if (isIndexed(job)) status.completedIndexes = formatIndexes(done)
  if (!conditions.length) delete status.conditions

  for (const pod of changes.deletes)
    actions.push(
      deleteAction(pod),
      event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`),
    )
  if (!jsonEqual(prev, status)) actions.push(statusWrite(jobs, stored, status))
  actions.push(...finalEvents)
  for (const pod of changes.creates) actions.push({ type: 'create', resource: pods, object: pod })
  // More pods to create or delete than one pass makes: the next pass continues at once.
  if (changes.more) requeueAfterMs = 0
  const remembered = memoryChanges(memory, [
    [
      key,
      requestedCreates(
        job,
        owned.map((pod) => pod.metadata.uid ?? ''),
        changes.creates.length,
      ),
    ],
  ])
  return withMemory(
    requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs },
    remembered,
  )
}
