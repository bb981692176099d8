import type { KubeObject } from '../../apimachinery/types'
import { setCondition } from '../../apimachinery/conditions'
import { jsonEqual } from '../../apimachinery/json-value'
import { deployments, replicaSets } from '../resources'
import { isAlreadyExists, refusedCreate } from '../runtime/refusal'
import type { Action, Refused } from '../runtime/types'
import { toDeployment } from '../shared/workloads'
import { newCondition, PROGRESSING } from './conditions'
import { hasProgressDeadline } from './progress-deadline'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'

/** FailedRSCreateReason: the new ReplicaSet could not be created. */
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError'

/**
 * getNewReplicaSet's answer to a refused create of the new ReplicaSet, reported on the pass after
 * it: a ReplicaSetCreateError event `Failed to create new replica set "<name>": <err>` and, with a
 * progress deadline, Progressing=False with that message, written at once (before the create is
 * tried again). An AlreadyExists is the hash-collision path's, not reported here.
 */
export function reportRefusedReplicaSet(
  stored: KubeObject,
  refused: Refused | undefined,
  now: number,
): Action[] {
  const failed = refusedCreate(refused, replicaSets)
  if (!failed || isAlreadyExists(failed.status)) return []
  const message = `Failed to create new replica set "${failed.object.metadata.name}": ${failed.message}`
  const actions: Action[] = []
  const d = toDeployment(stored)
  if (hasProgressDeadline(d)) {
    const conditions = setCondition(
      d.status.conditions,
      newCondition(PROGRESSING, 'False', FAILED_RS_CREATE_REASON, message, now),
    )
    if (!jsonEqual(conditions, d.status.conditions ?? []))
      actions.push(statusWrite(deployments, stored, { ...d.status, conditions }))
  }
  actions.push(event(stored, 'Warning', FAILED_RS_CREATE_REASON, message))
  return actions
}
