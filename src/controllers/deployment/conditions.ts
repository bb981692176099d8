import { formatTime } from '../../apimachinery/meta-time'
import type { Condition } from '../../apimachinery/conditions'

/** Deployment condition types and reasons, with upstream's spelling. */
export const AVAILABLE = 'Available'
export const PROGRESSING = 'Progressing'
export const REPLICA_FAILURE = 'ReplicaFailure'

export const NEW_RS_REASON = 'NewReplicaSetCreated'
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet'
export const RS_UPDATED_REASON = 'ReplicaSetUpdated'
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable'
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded'
export const PAUSED_REASON = 'DeploymentPaused'
export const RESUMED_REASON = 'DeploymentResumed'
export const MIN_AVAILABLE_REASON = 'MinimumReplicasAvailable'
export const MIN_UNAVAILABLE_REASON = 'MinimumReplicasUnavailable'

/** NewDeploymentCondition: both times set to now. */
export function newCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): Condition {
  const at = formatTime(now)
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message }
}
