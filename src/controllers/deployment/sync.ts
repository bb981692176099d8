import { getCondition, setCondition } from '../../apimachinery/conditions'
import { specReplicas, type Deployment, type ReplicaSet } from '../shared/workloads'
import { cleanupDeployment } from './cleanup'
import {
  newCondition,
  PAUSED_REASON,
  PROGRESSING,
  RESUMED_REASON,
  TIMED_OUT_REASON,
} from './conditions'
import { isRollingUpdate, maxSurge } from './fenceposts'
import { replicaSetsAndSyncRevision } from './new-replica-set'
import type { Plan } from './plan'
import { hasProgressDeadline } from './progress-deadline'
import {
  activeReplicaSets,
  byCreation,
  bySizeNewer,
  bySizeOlder,
  desiredReplicasAnnotation,
  isSaturated,
  maxReplicasAnnotation,
  specReplicaCount,
} from './replica-sets'
import { scaleReplicaSet, scaleReplicaSetAndRecordEvent } from './scale'
import { syncDeploymentStatus } from './status'
import { intOr } from '../../apimachinery/json-value'

/** syncStatusOnly: a Deployment being deleted only gets its status refreshed. */
export function syncStatusOnly(plan: Plan, rsList: readonly ReplicaSet[]): void {
  const sets = replicaSetsAndSyncRevision(plan, rsList, false)
  if (!sets) return
  syncDeploymentStatus(plan, [...sets.oldRSs, sets.newRS], sets.newRS)
}

/**
 * sync: the pass for a paused Deployment or a scaling event. It resizes the ReplicaSets without
 * rolling out, cleans up old ReplicaSets while paused, and refreshes the status.
 */
export function sync(plan: Plan, rsList: readonly ReplicaSet[]): void {
  const sets = replicaSetsAndSyncRevision(plan, rsList, false)
  if (!sets) return
  scale(plan, sets.newRS, sets.oldRSs)
  if (plan.d.spec.paused) cleanupDeployment(plan, sets.oldRSs)
  syncDeploymentStatus(plan, [...sets.oldRSs, sets.newRS], sets.newRS)
}

/**
 * checkPausedConditions: Progressing=Unknown DeploymentPaused while paused and DeploymentResumed
 * once resumed, so a rollout that was paused past its deadline is not reported as stuck. A
 * reported timeout is left alone.
 */
export function checkPausedConditions(plan: Plan): void {
  const d = plan.d
  if (!hasProgressDeadline(d)) return
  const cond = getCondition(d.status.conditions, PROGRESSING)
  if (cond?.reason === TIMED_OUT_REASON) return
  const pausedCondExists = cond?.reason === PAUSED_REASON
  if (d.spec.paused && !pausedCondExists) {
    d.status.conditions = setCondition(
      d.status.conditions,
      newCondition(PROGRESSING, 'Unknown', PAUSED_REASON, 'Deployment is paused', plan.now),
    )
  } else if (!d.spec.paused && pausedCondExists) {
    d.status.conditions = setCondition(
      d.status.conditions,
      newCondition(PROGRESSING, 'Unknown', RESUMED_REASON, 'Deployment is resumed', plan.now),
    )
  }
}

/** isScalingEvent: an active ReplicaSet was sized for a different spec.replicas than the Deployment's now. */
export function isScalingEvent(plan: Plan, rsList: readonly ReplicaSet[]): boolean {
  const sets = replicaSetsAndSyncRevision(plan, rsList, false)
  if (!sets) return false
  const desired = specReplicas(plan.d)
  return activeReplicaSets([...sets.oldRSs, sets.newRS]).some((rs) => {
    const annotated = desiredReplicasAnnotation(rs)
    return annotated !== undefined && annotated !== desired
  })
}

/** FindActiveOrLatest: the only active ReplicaSet, or the newest one when none is active. */
function activeOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a))
  const active = activeReplicaSets([...newestFirst, newRS])
  if (active.length === 0) return newRS ?? newestFirst[0]
  return active.length === 1 ? active[0] : undefined
}

/** math.Round: halves away from zero. */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x))

/**
 * getReplicaSetFraction: the share of a resize this ReplicaSet takes, in proportion to its size
 * against the Deployment's size (plus surge) when it was last sized (the max-replicas annotation).
 */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (specReplicas(d) === 0) return -specReplicas(rs)
  const maxNow = specReplicas(d) + maxSurge(d)
  let maxBefore = maxReplicasAnnotation(rs)
  if (!maxBefore) maxBefore = intOr(d.status.replicas, 0)
  // With nothing to scale from there is no proportion to keep; the leftover goes to the largest.
  if (!maxBefore) return 0
  return roundHalfAway((specReplicas(rs) * maxNow) / maxBefore) - specReplicas(rs)
}

/** GetProportion: the fraction, capped by what is still left to add (or remove). */
function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0
  const fraction = replicaSetFraction(rs, d)
  const allowed = toAdd - added
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed)
}

/**
 * scale: a single active (or the latest) ReplicaSet takes spec.replicas; with a saturated new
 * ReplicaSet the old ones go to 0; otherwise, mid-rollout, the difference to spec.replicas +
 * maxSurge is spread over the active ReplicaSets in proportion to their size, leftovers going to
 * the largest (newer first when scaling up, older first when scaling down).
 */
export function scale(
  plan: Plan,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): void {
  const d = plan.d
  const only = activeOrLatest(newRS, oldRSs)
  if (only) {
    if (specReplicas(only) !== specReplicas(d))
      scaleReplicaSetAndRecordEvent(plan, only, specReplicas(d))
    return
  }
  if (isSaturated(d, newRS)) {
    for (const old of activeReplicaSets(oldRSs)) scaleReplicaSetAndRecordEvent(plan, old, 0)
    return
  }
  if (!isRollingUpdate(d)) return
  const all = activeReplicaSets([...oldRSs, newRS])
  const allowedSize = specReplicas(d) > 0 ? specReplicas(d) + maxSurge(d) : 0
  const toAdd = allowedSize - specReplicaCount(all)
  const operation = toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : ''
  if (toAdd > 0) all.sort(bySizeNewer)
  else if (toAdd < 0) all.sort(bySizeOlder)
  let added = 0
  const sizes = new Map<ReplicaSet, number>()
  for (const rs of all) {
    if (toAdd === 0) {
      sizes.set(rs, specReplicas(rs))
      continue
    }
    const p = proportion(rs, d, toAdd, added)
    sizes.set(rs, specReplicas(rs) + p)
    added += p
  }
  all.forEach((rs, i) => {
    if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(0, sizes.get(rs)! + toAdd - added))
    scaleReplicaSet(plan, rs, sizes.get(rs)!, operation)
  })
}
