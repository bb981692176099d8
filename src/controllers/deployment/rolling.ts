import { rsStatus, specReplicas, type Deployment, type ReplicaSet } from '../shared/workloads'
import { cleanupDeployment } from './cleanup'
import { maxUnavailable } from './fenceposts'
import { replicaSetsAndSyncRevision } from './new-replica-set'
import type { Plan } from './plan'
import { syncRolloutStatus } from './progress'
import {
  activeReplicaSets,
  availableReplicaCount,
  byCreation,
  newRSNewReplicas,
  specReplicaCount,
} from './replica-sets'
import { scaleReplicaSetAndRecordEvent } from './scale'
import { deploymentComplete } from './status'
import { intOr } from '../../apimachinery/json-value'

/**
 * rolloutRolling: scale the new ReplicaSet up if the surge allows; otherwise scale old ones down
 * if availability allows; once neither moves and the rollout is complete, clean up old revisions.
 * Each pass takes one step; the ReplicaSets' status changes bring the next pass.
 */
export function rolloutRolling(plan: Plan, rsList: readonly ReplicaSet[]): void {
  const sets = replicaSetsAndSyncRevision(plan, rsList, true)
  if (!sets || !sets.newRS) return
  const { newRS, oldRSs } = sets
  const all = [...oldRSs, newRS]
  if (
    reconcileNewReplicaSet(plan, all, newRS) ||
    reconcileOldReplicaSets(plan, all, activeReplicaSets(oldRSs), newRS)
  ) {
    syncRolloutStatus(plan, all, newRS)
    return
  }
  if (deploymentComplete(plan.d, plan.d.status)) cleanupDeployment(plan, oldRSs)
  syncRolloutStatus(plan, all, newRS)
}

/** reconcileNewReplicaSet: down to spec.replicas if above it, else up by what NewRSNewReplicas allows. */
export function reconcileNewReplicaSet(
  plan: Plan,
  all: readonly ReplicaSet[],
  newRS: ReplicaSet,
): boolean {
  const desired = specReplicas(plan.d)
  if (specReplicas(newRS) === desired) return false
  if (specReplicas(newRS) > desired) return scaleReplicaSetAndRecordEvent(plan, newRS, desired)
  return scaleReplicaSetAndRecordEvent(plan, newRS, newRSNewReplicas(plan.d, all, newRS))
}

/**
 * How many old pods may go now: all pods minus the minimum that must stay available minus the new
 * ReplicaSet's pods that are not available yet (so that unavailable new pods never let more old
 * ones go).
 */
export function maxScaledDown(
  d: Deployment,
  all: readonly ReplicaSet[],
  newRS: ReplicaSet,
): number {
  const minAvailable = specReplicas(d) - maxUnavailable(d)
  const newUnavailable = specReplicas(newRS) - intOr(rsStatus(newRS).availableReplicas, 0)
  return specReplicaCount(all) - minAvailable - newUnavailable
}

/**
 * reconcileOldReplicaSets: within maxScaledDown, first scale away old replicas that are not
 * available (they cost no availability, and would otherwise block the rollout), then scale old
 * ReplicaSets down, oldest first, by as many available pods as exceed the minimum.
 */
export function reconcileOldReplicaSets(
  plan: Plan,
  all: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
): boolean {
  if (specReplicaCount(oldRSs) === 0) return false
  const budget = maxScaledDown(plan.d, all, newRS)
  if (budget <= 0) return false
  const cleaned = cleanupUnhealthyReplicas(plan, oldRSs, budget)
  if (cleaned === undefined) return false
  const scaled = scaleDownOldReplicaSetsForRollingUpdate(plan, [...oldRSs, newRS], oldRSs)
  return cleaned + scaled > 0
}

/** cleanupUnhealthyReplicas: scales each old ReplicaSet (oldest first) down by its unavailable replicas, within the budget. */
export function cleanupUnhealthyReplicas(
  plan: Plan,
  oldRSs: readonly ReplicaSet[],
  budget: number,
): number | undefined {
  let total = 0
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= budget) break
    const replicas = specReplicas(rs)
    const available = intOr(rsStatus(rs).availableReplicas, 0)
    if (replicas === 0 || replicas === available) continue
    const count = Math.min(budget - total, replicas - available)
    // More available than desired (a stale status): upstream refuses to scale "down" upward and stops here.
    if (count < 0) return undefined
    scaleReplicaSetAndRecordEvent(plan, rs, replicas - count)
    total += count
  }
  return total
}

/** scaleDownOldReplicaSetsForRollingUpdate: old ReplicaSets (oldest first) give up the available pods above spec.replicas - maxUnavailable. */
export function scaleDownOldReplicaSetsForRollingUpdate(
  plan: Plan,
  all: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
): number {
  const minAvailable = specReplicas(plan.d) - maxUnavailable(plan.d)
  const available = availableReplicaCount(all)
  if (available <= minAvailable) return 0
  const target = available - minAvailable
  let total = 0
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= target) break
    const replicas = specReplicas(rs)
    if (replicas === 0) continue
    const count = Math.min(replicas, target - total)
    scaleReplicaSetAndRecordEvent(plan, rs, replicas - count)
    total += count
  }
  return total
}
