import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { objectKey } from '../../apimachinery/object-key'

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler'

export function podSpec(pod: KubeObject): Json {
  return asRecord(pod.spec)
}

export function podStatus(pod: KubeObject): Json {
  return asRecord(pod.status)
}

export const podKey = (pod: KubeObject): string => objectKey(pod)

export function nodeNameOf(pod: KubeObject): string {
  const n = podSpec(pod).nodeName
  return typeof n === 'string' ? n : ''
}

/** Succeeded and Failed pods hold no resources: the scheduler's informer does not even see them. */
export function isTerminal(pod: KubeObject): boolean {
  const phase = podStatus(pod).phase
  return phase === 'Succeeded' || phase === 'Failed'
}

/**
 * A pod this scheduler should place: unbound, not being deleted, not finished, addressed to it,
 * and without scheduling gates (gated pods wait in the queue upstream until the gates are removed).
 */
export function isPendingFor(pod: KubeObject, schedulerName: string): boolean {
  const spec = podSpec(pod)
  if (nodeNameOf(pod) !== '') return false
  if (pod.metadata.deletionTimestamp) return false
  if (isTerminal(pod)) return false
  const name =
    typeof spec.schedulerName === 'string' && spec.schedulerName !== ''
      ? spec.schedulerName
      : DEFAULT_SCHEDULER_NAME
  if (name !== schedulerName) return false
  return !(Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0)
}

/** The uid of the pod's managing controller (the ownerReference with controller: true). */
export function controllerUid(pod: KubeObject): string | undefined {
  return controllerRefOf(pod)?.uid
}
