import {
  type Condition,
  getCondition,
  removeCondition,
  setCondition,
} from '../../apimachinery/conditions'
import {
  rsStatus,
  type Deployment,
  type DeploymentStatus,
  type ReplicaSet,
} from '../shared/workloads'
import {
  newCondition,
  NEW_RS_AVAILABLE_REASON,
  PROGRESSING,
  REPLICA_FAILURE,
  RS_UPDATED_REASON,
  TIMED_OUT_REASON,
} from './conditions'
import type { Plan } from './plan'
import { hasProgressDeadline } from './progress-deadline'
import { calculateStatus, deploymentComplete } from './status'
import { parseTime } from '../../apimachinery/meta-time'

/** DeploymentProgressing: more updated, ready or available pods, or fewer old ones, than the last status said. */
export function deploymentProgressing(d: Deployment, next: DeploymentStatus): boolean {
  const old = d.status
  const n = (v: number | undefined) => v ?? 0
  const oldOld = n(old.replicas) - n(old.updatedReplicas)
  const newOld = n(next.replicas) - n(next.updatedReplicas)
  return (
    n(next.updatedReplicas) > n(old.updatedReplicas) ||
    newOld < oldOld ||
    n(next.readyReplicas) > n(old.readyReplicas) ||
    n(next.availableReplicas) > n(old.availableReplicas)
  )
}

/**
 * DeploymentTimedOut: the Progressing condition was last updated (progress seen, a ReplicaSet
 * created, the Deployment resumed) more than progressDeadlineSeconds ago. A completed rollout
 * never times out; one that did stays timed out.
 */
export function deploymentTimedOut(d: Deployment, next: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false
  const cond = getCondition(next.conditions, PROGRESSING)
  if (!cond || cond.reason === NEW_RS_AVAILABLE_REASON) return false
  if (cond.reason === TIMED_OUT_REASON) return true
  const from = parseTime(cond.lastUpdateTime)
  return from !== undefined && from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < now
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition, else any old one's, as a Deployment condition. */
function replicaFailure(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): Condition | undefined {
  const of = (rs: ReplicaSet | undefined) =>
    rs ? getCondition(rsStatus(rs).conditions, REPLICA_FAILURE) : undefined
  const c = of(newRS) ?? allRSs.map(of).find((x) => x)
  if (!c) return undefined
  return {
    type: REPLICA_FAILURE,
    status: c.status,
    lastUpdateTime: c.lastTransitionTime,
    lastTransitionTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  }
}

/**
 * requeueStuckDeployment: a rollout that is neither complete nor timed out is looked at again
 * just after its deadline, so that ProgressDeadlineExceeded is reported even if nothing changes.
 */
export function stuckRequeueMs(
  d: Deployment,
  next: DeploymentStatus,
  now: number,
): number | undefined {
  const cond = getCondition(next.conditions, PROGRESSING)
  if (
    !hasProgressDeadline(d) ||
    !cond ||
    deploymentComplete(d, next) ||
    cond.reason === TIMED_OUT_REASON
  )
    return undefined
  const from = parseTime(cond.lastUpdateTime)
  if (from === undefined) return undefined
  return Math.max(0, from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - now) + 1
}

/**
 * syncRolloutStatus: the status of a rollout with its Progressing condition: NewReplicaSetAvailable
 * once complete, ReplicaSetUpdated (lastUpdateTime renewed) while it progresses, and
 * ProgressDeadlineExceeded once it has made no progress for progressDeadlineSeconds. Without a
 * deadline there is no Progressing condition. ReplicaFailure is copied from the ReplicaSets.
 */
export function syncRolloutStatus(
  plan: Plan,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): void {
  const d = plan.d
  const next = calculateStatus(allRSs, newRS, d, plan.now)
  if (!hasProgressDeadline(d)) next.conditions = removeCondition(next.conditions, PROGRESSING)
  const current = getCondition(d.status.conditions, PROGRESSING)
  const isComplete =
    (next.replicas ?? 0) === (next.updatedReplicas ?? 0) &&
    current?.reason === NEW_RS_AVAILABLE_REASON
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`
  if (hasProgressDeadline(d) && !isComplete) {
    if (deploymentComplete(d, next)) {
      next.conditions = setCondition(
        next.conditions,
        newCondition(
          PROGRESSING,
          'True',
          NEW_RS_AVAILABLE_REASON,
          `${subject} has successfully progressed.`,
          plan.now,
        ),
      )
    } else if (deploymentProgressing(d, next)) {
      // Progress renews lastUpdateTime even when the reason stays the same, which
      // setCondition alone would not do; lastTransitionTime is kept while it stays True.
      const cond = newCondition(
        PROGRESSING,
        'True',
        RS_UPDATED_REASON,
        `${subject} is progressing.`,
        plan.now,
      )
      if (current?.status === 'True') cond.lastTransitionTime = current.lastTransitionTime
      next.conditions = setCondition(removeCondition(next.conditions, PROGRESSING), cond)
    } else if (deploymentTimedOut(d, next, plan.now)) {
      next.conditions = setCondition(
        next.conditions,
        newCondition(
          PROGRESSING,
          'False',
          TIMED_OUT_REASON,
          `${subject} has timed out progressing.`,
          plan.now,
        ),
      )
    }
  }
  const failure = replicaFailure(allRSs, newRS)
  next.conditions = failure
    ? setCondition(next.conditions, failure)
    : removeCondition(next.conditions, REPLICA_FAILURE)
  if (!next.conditions.length) delete next.conditions
  plan.requeueAfter(stuckRequeueMs(d, next, plan.now))
  d.status = next
}
