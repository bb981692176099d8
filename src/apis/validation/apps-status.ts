/**
 * The status rules of the apps workloads (pkg/apis/apps/validation Validate*Status), with
 * upstream's field paths and messages: counts are never negative, no count of a subset exceeds
 * status.replicas, and collisionCount never goes down.
 */
import type { KubeObject } from '../../apimachinery/types'
import { invalid, type FieldCause } from '../../apimachinery/field-errors'
import { asRecord } from '../../apimachinery/json-value'
import { isNegativeErrorMsg } from '../../apimachinery/field-formats'

const num = (v: unknown) => (typeof v === 'number' ? v : 0)

function nonNegative(status: Record<string, unknown>, fields: readonly string[]): FieldCause[] {
  return fields
    .filter((f) => num(status[f]) < 0)
    .map((f) => invalid(`status.${f}`, status[f], isNegativeErrorMsg))
}

/** Ready, available and the other subset counts are at most status.replicas; available at most ready. */
function withinReplicas(
  status: Record<string, unknown>,
  fields: readonly string[],
  readyMessage: string,
): FieldCause[] {
  const causes = fields
    .filter((f) => num(status[f]) > num(status.replicas))
    .map((f) => invalid(`status.${f}`, status[f], 'cannot be greater than status.replicas'))
  if (num(status.availableReplicas) > num(status.readyReplicas))
    causes.push(invalid('status.availableReplicas', status.availableReplicas, readyMessage))
  return causes
}

/** IsDecremented: a collisionCount that was set may not go down or be removed. */
function collisionCountKept(status: Record<string, unknown>, old: KubeObject): FieldCause[] {
  const before = asRecord(old.status).collisionCount
  if (typeof before !== 'number') return []
  const now = status.collisionCount
  return typeof now === 'number' && now >= before
    ? []
    : [invalid('status.collisionCount', num(now), 'cannot be decremented')]
}

export function validateDeploymentStatus(obj: KubeObject, old: KubeObject): FieldCause[] {
  const status = asRecord(obj.status)
  return [
    ...nonNegative(status, [
      'observedGeneration',
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
      'collisionCount',
    ]),
    ...withinReplicas(
      status,
      ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
      'cannot be greater than readyReplicas',
    ),
    ...collisionCountKept(status, old),
  ]
}

export function validateReplicaSetStatus(obj: KubeObject): FieldCause[] {
  const status = asRecord(obj.status)
  return [
    ...nonNegative(status, [
      'replicas',
      'fullyLabeledReplicas',
      'readyReplicas',
      'availableReplicas',
      'observedGeneration',
    ]),
    ...withinReplicas(
      status,
      ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
      'cannot be greater than readyReplicas',
    ),
  ]
}

export function validateStatefulSetStatus(obj: KubeObject, old: KubeObject): FieldCause[] {
  const status = asRecord(obj.status)
  return [
    ...nonNegative(status, [
      'replicas',
      'readyReplicas',
      'currentReplicas',
      'updatedReplicas',
      'availableReplicas',
      'observedGeneration',
      'collisionCount',
    ]),
    ...withinReplicas(
      status,
      ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
      'cannot be greater than status.readyReplicas',
    ),
    ...collisionCountKept(status, old),
  ]
}

export function validateDaemonSetStatus(obj: KubeObject, old: KubeObject): FieldCause[] {
  const status = asRecord(obj.status)
  const counts = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ]
  return [...nonNegative(status, counts), ...collisionCountKept(status, old)]
}
