import { specReplicas, type ReplicaSet } from '../shared/workloads'
import { maxSurge } from './fenceposts'
import type { Plan } from './plan'
import { replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './replica-sets'

/**
 * scaleReplicaSet: sets spec.replicas and the desired/max replica annotations, and records a
 * ScalingReplicaSet event when the size changes. Returns whether it scaled.
 */
export function scaleReplicaSet(
  plan: Plan,
  rs: ReplicaSet,
  newScale: number,
  operation: 'up' | 'down' | '',
): boolean {
  const d = plan.d
  const desired = specReplicas(d)
  const max = desired + maxSurge(d)
  const oldScale = specReplicas(rs)
  const sizeNeedsUpdate = oldScale !== newScale
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return false
  rs.spec.replicas = newScale
  setReplicasAnnotations(rs, desired, max)
  plan.touch(rs)
  if (!sizeNeedsUpdate) return false
  plan.event(
    rs,
    'Normal',
    'ScalingReplicaSet',
    `Scaled ${operation} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`,
  )
  return true
}

/** scaleReplicaSetAndRecordEvent: nothing when the size is already right. */
export function scaleReplicaSetAndRecordEvent(
  plan: Plan,
  rs: ReplicaSet,
  newScale: number,
): boolean {
  const current = specReplicas(rs)
  if (current === newScale) return false
  return scaleReplicaSet(plan, rs, newScale, current < newScale ? 'up' : 'down')
}
