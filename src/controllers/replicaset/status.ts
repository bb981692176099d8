import type { KubeObject } from '../../apimachinery/types'
import {
  type Condition,
  getCondition,
  removeCondition,
  setCondition,
} from '../../apimachinery/conditions'
import { availableInMs, isPodAvailable, isPodReady } from '../shared/pods'
import {
  generationOf,
  rsStatus,
  specReplicas,
  type ReplicaSet,
  type ReplicaSetStatus,
} from '../shared/workloads'
import { intOr, jsonEqual } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

export const REPLICA_FAILURE = 'ReplicaFailure'

/** Why the previous pass could not reach the desired count: FailedCreate or FailedDelete. */
export interface ReplicaFailure {
  reason: 'FailedCreate' | 'FailedDelete'
  message: string
}

/**
 * calculateStatus: counts over the active pods the ReplicaSet controls, the ReplicaFailure
 * condition set while creates or deletes fail and dropped once they succeed, and
 * observedGeneration. Zero counters are left out, as Go's omitempty prints them (replicas stays).
 */
export function calculateStatus(
  rs: ReplicaSet,
  active: readonly KubeObject[],
  failure: ReplicaFailure | undefined,
  now: number,
): ReplicaSetStatus {
  const templateLabels = Object.entries(rs.spec.template?.metadata?.labels ?? {})
  const minReadySeconds = intOr(rs.spec.minReadySeconds, 0)
  let fullyLabeled = 0
  let ready = 0
  let available = 0
  for (const pod of active) {
    const labels = pod.metadata.labels ?? {}
    if (templateLabels.every(([k, v]) => labels[k] === v)) fullyLabeled++
    if (isPodReady(pod)) {
      ready++
      if (isPodAvailable(pod, minReadySeconds, now)) available++
    }
  }
  let conditions: Condition[] = rsStatus(rs).conditions ?? []
  const current = getCondition(conditions, REPLICA_FAILURE)
  if (failure && !current) {
    conditions = setCondition(conditions, {
      type: REPLICA_FAILURE,
      status: 'True',
      lastTransitionTime: formatTime(now),
      reason: failure.reason,
      message: failure.message,
    })
  } else if (!failure && current) {
    conditions = removeCondition(conditions, REPLICA_FAILURE)
  }
  const status: ReplicaSetStatus = { replicas: active.length }
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled
  if (ready) status.readyReplicas = ready
  if (available) status.availableReplicas = available
  if (generationOf(rs)) status.observedGeneration = generationOf(rs)
  if (conditions.length) status.conditions = conditions
  return status
}

/** updateReplicaSetStatus's steady-state check: no write when every counter, the generation and the conditions agree. */
export function statusChanged(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur = rsStatus(rs)
  const n = (v: unknown) => intOr(v, 0)
  return (
    n(cur.replicas) !== n(next.replicas) ||
    n(cur.fullyLabeledReplicas) !== n(next.fullyLabeledReplicas) ||
    n(cur.readyReplicas) !== n(next.readyReplicas) ||
    n(cur.availableReplicas) !== n(next.availableReplicas) ||
    n(cur.observedGeneration) !== generationOf(rs) ||
    !jsonEqual(cur.conditions ?? [], next.conditions ?? [])
  )
}

/**
 * When to look again so that pods which are ready but not yet available for minReadySeconds get
 * counted the moment they are (upstream requeues after minReadySeconds; this waits only as long as
 * the earliest such pod needs).
 */
export function availabilityRequeueMs(
  rs: ReplicaSet,
  active: readonly KubeObject[],
  now: number,
): number | undefined {
  const minReadySeconds = intOr(rs.spec.minReadySeconds, 0)
  let soonest: number | undefined
  for (const pod of active) {
    const wait = availableInMs(pod, minReadySeconds, now)
    if (wait !== undefined && (soonest === undefined || wait < soonest)) soonest = wait
  }
  return soonest
}

/** The surplus (positive) or shortfall (negative) of active pods against spec.replicas. */
export function replicaDiff(rs: ReplicaSet, active: readonly KubeObject[]): number {
  return active.length - specReplicas(rs)
}
