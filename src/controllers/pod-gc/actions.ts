import type { KubeObject } from '../../apimachinery/types'
import { pods } from '../resources'
import type { Action } from '../runtime/types'
import { asRecord, isTerminated } from './pods'
import { formatTime } from '../../apimachinery/meta-time'

export interface PodCondition {
  type: string
  status: string
  reason: string
  message: string
}

/** The condition recorded on a pod whose node is gone (the DisruptionTarget a Job's pod failure policy reads). */
export const nodeGoneCondition: PodCondition = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByPodGC',
  message: 'PodGC: node no longer exists',
}

/**
 * Upstream's markFailedAndDeletePod: a pod that has not finished is marked Failed first (with
 * `condition` when given), since no kubelet will ever report its end; then it is deleted with no
 * grace period, as no kubelet will confirm a graceful deletion either.
 */
export function markFailedAndDelete(
  pod: KubeObject,
  now: number,
  condition?: PodCondition,
): Action[] {
  const actions: Action[] = []
  const namespace = pod.metadata.namespace
  const name = pod.metadata.name ?? ''
  if (!isTerminated(pod)) {
    const status: Record<string, unknown> = { phase: 'Failed' }
    if (condition) status.conditions = withCondition(pod, condition, now)
    actions.push({
      type: 'patch',
      resource: pods,
      namespace,
      name,
      subresource: 'status',
      patch: { status },
    })
  }
  actions.push({
    type: 'delete',
    resource: pods,
    namespace,
    name,
    preconditions: { uid: pod.metadata.uid },
    gracePeriodSeconds: 0,
  })
  return actions
}

/** The pod's conditions with `condition` set; its transition time moves only if its status changes. */
function withCondition(
  pod: KubeObject,
  condition: PodCondition,
  now: number,
): Record<string, unknown>[] {
  const current = asRecord(pod.status).conditions
  const list = Array.isArray(current) ? (current as Record<string, unknown>[]) : []
  const existing = list.find((c) => c.type === condition.type)
  const lastTransitionTime =
    existing && existing.status === condition.status ? existing.lastTransitionTime : formatTime(now)
  const next = { ...condition, lastTransitionTime }
  return existing ? list.map((c) => (c === existing ? next : c)) : [...list, next]
}
