import type { KubeObject } from '../../apimachinery/types'
import { podPhase } from '../shared/pods'
import { specReplicas, type ReplicaSet } from '../shared/workloads'
import { cleanupDeployment } from './cleanup'
import { replicaSetsAndSyncRevision } from './new-replica-set'
import type { Plan } from './plan'
import { syncRolloutStatus } from './progress'
import { activeReplicaSets, actualReplicaCount } from './replica-sets'
import { scaleReplicaSetAndRecordEvent } from './scale'
import { deploymentComplete } from './status'

/**
 * oldPodsRunning: an old ReplicaSet still reports pods, or a pod of one is not yet finished (an
 * Unknown one counts: it may still run). Pods being deleted count until they are gone.
 */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podMap: ReadonlyMap<string, readonly KubeObject[]>,
): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true
  for (const [uid, pods] of podMap) {
    if (newRS && newRS.metadata.uid === uid) continue
    if (pods.some((p) => podPhase(p) !== 'Failed' && podPhase(p) !== 'Succeeded')) return true
  }
  return false
}

/**
 * rolloutRecreate: scale every old ReplicaSet to 0, wait until none of their pods runs, then
 * create (or scale up) the new ReplicaSet to spec.replicas. The new ReplicaSet is only created
 * after the old pods are gone, so old and new never run side by side.
 */
export function rolloutRecreate(
  plan: Plan,
  rsList: readonly ReplicaSet[],
  podMap: ReadonlyMap<string, readonly KubeObject[]>,
): void {
  let sets = replicaSetsAndSyncRevision(plan, rsList, false)
  if (!sets) return
  let scaledDown = false
  for (const rs of activeReplicaSets(sets.oldRSs))
    if (scaleReplicaSetAndRecordEvent(plan, rs, 0)) scaledDown = true
  if (scaledDown || oldPodsRunning(sets.newRS, sets.oldRSs, podMap)) {
    syncRolloutStatus(plan, [...sets.oldRSs, sets.newRS], sets.newRS)
    return
  }
  if (!sets.newRS) {
    sets = replicaSetsAndSyncRevision(plan, rsList, true)
    if (!sets || !sets.newRS) return
  }
  const newRS = sets.newRS!
  scaleReplicaSetAndRecordEvent(plan, newRS, specReplicas(plan.d))
  if (deploymentComplete(plan.d, plan.d.status)) cleanupDeployment(plan, sets.oldRSs)
  syncRolloutStatus(plan, [...sets.oldRSs, newRS], newRS)
}
