import type { KubeObject } from '../../apimachinery/types'
import { generationOf } from '../shared/workloads'
import { isRunningAndAvailable, isRunningAndReady, isTerminating } from './health'
import { podRevision } from './identity'
import type { Step } from './plan'
import { statusOf, strategyOf, type StatefulSet, type StatefulSetStatus } from './types'
import { intOr, jsonEqual } from '../../apimachinery/json-value'

export interface StatusInput {
  pods: readonly KubeObject[]
  steps: readonly Step[]
  currentRevision: string
  updateRevision: string
  collisionCount: number
  minReadySeconds: number
  now: number
}

/**
 * The status updateStatefulSet leaves: counts over the pods the set controls (current and updated
 * ones only while not terminating), adjusted for this pass's creates and deletes as upstream
 * counts them, the revisions and collision count. completeRollingUpdate then makes the update
 * revision current once every pod is updated and ready.
 */
export function computeStatus(set: StatefulSet, input: StatusInput): StatefulSetStatus {
  let replicas = 0
  let ready = 0
  let available = 0
  let current = 0
  let updated = 0
  for (const pod of input.pods) {
    replicas++
    if (isRunningAndReady(pod)) {
      ready++
      if (isRunningAndAvailable(pod, input.minReadySeconds, input.now)) available++
    }
    if (!isTerminating(pod)) {
      if (podRevision(pod) === input.currentRevision) current++
      if (podRevision(pod) === input.updateRevision) updated++
    }
  }
  for (const step of input.steps) {
    if (step.type === 'create') {
      replicas++
      const rev = step.revision === 'current' ? input.currentRevision : input.updateRevision
      if (rev === input.currentRevision) current++
      if (rev === input.updateRevision) updated++
    } else if (step.type === 'delete') {
      if (podRevision(step.pod) === input.currentRevision) current--
      if (podRevision(step.pod) === input.updateRevision) updated--
    }
  }
  let currentRevision = input.currentRevision
  if (strategyOf(set) === 'RollingUpdate' && updated === replicas && ready === replicas) {
    currentRevision = input.updateRevision
    current = updated
  }
  const status: StatefulSetStatus = {
    ...statusOf(set),
    observedGeneration: generationOf(set),
    replicas,
    availableReplicas: available,
  }
  const setOrDrop = (field: 'readyReplicas' | 'currentReplicas' | 'updatedReplicas', v: number) => {
    if (v > 0) status[field] = v
    else delete status[field]
  }
  setOrDrop('readyReplicas', ready)
  setOrDrop('currentReplicas', Math.max(0, current))
  setOrDrop('updatedReplicas', Math.max(0, updated))
  status.currentRevision = currentRevision
  status.updateRevision = input.updateRevision
  status.collisionCount = input.collisionCount
  if (!status.observedGeneration) delete status.observedGeneration
  return status
}

/** Whether the status differs from what is stored (no write when it does not). */
export function statusChanged(set: StatefulSet, next: StatefulSetStatus): boolean {
  return (
    !jsonEqual(statusOf(set), next) ||
    intOr(statusOf(set).observedGeneration, 0) !== generationOf(set)
  )
}
