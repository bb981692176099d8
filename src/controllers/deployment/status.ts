import { setCondition } from '../../apimachinery/conditions'
import {
  generationOf,
  specReplicas,
  type Deployment,
  type DeploymentStatus,
  type ReplicaSet,
} from '../shared/workloads'
import { AVAILABLE, MIN_AVAILABLE_REASON, MIN_UNAVAILABLE_REASON, newCondition } from './conditions'
import { maxUnavailable } from './fenceposts'
import type { Plan } from './plan'
import {
  actualReplicaCount,
  availableReplicaCount,
  readyReplicaCount,
  specReplicaCount,
} from './replica-sets'

/** Go's omitempty on DeploymentStatus: zero counters are not printed. */
function compact(s: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {}
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined || v === null || v === 0 || (Array.isArray(v) && v.length === 0)) continue
    out[k] = v
  }
  return out
}

/**
 * calculateStatus: what `kubectl rollout status` reads. replicas/updatedReplicas count existing pods
 * (status.replicas of all / of the new ReplicaSet), unavailableReplicas what spec still lacks, and
 * Available says whether spec.replicas - maxUnavailable pods are available. Other conditions are
 * carried over; collisionCount is kept (0 included, since it salts the hash).
 */
export function calculateStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const available = availableReplicaCount(allRSs)
  const status: DeploymentStatus = compact({
    observedGeneration: generationOf(d),
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicaCount(allRSs) - available),
  })
  const minAvailable = specReplicas(d) - maxUnavailable(d)
  const availability =
    available >= minAvailable
      ? newCondition(
          AVAILABLE,
          'True',
          MIN_AVAILABLE_REASON,
          'Deployment has minimum availability.',
          now,
        )
      : newCondition(
          AVAILABLE,
          'False',
          MIN_UNAVAILABLE_REASON,
          'Deployment does not have minimum availability.',
          now,
        )
  status.conditions = setCondition(d.status.conditions, availability)
  if (typeof d.status.collisionCount === 'number') status.collisionCount = d.status.collisionCount
  return status
}

/** syncDeploymentStatus: the status for a scaling or paused sync, where no progress is estimated. */
export function syncDeploymentStatus(
  plan: Plan,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
): void {
  plan.d.status = calculateStatus(allRSs, newRS, plan.d, plan.now)
}

/** DeploymentComplete: every replica updated, existing and available, and the latest generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = specReplicas(d)
  return (
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.observedGeneration ?? 0) >= generationOf(d)
  )
}
