import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import { pods } from '../resources'
import { podStatus } from './pods'
import type { Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

function conditionsOf(pod: KubeObject): Json[] {
  const conditions = podStatus(pod).conditions
  return Array.isArray(conditions) ? (conditions as Json[]) : []
}

export function podScheduledCondition(pod: KubeObject): Json | undefined {
  return conditionsOf(pod).find((c) => c.type === 'PodScheduled')
}

/**
 * Records a failed attempt: PodScheduled=False/Unschedulable with the message (and the node a
 * preemption nominated, if any), and a FailedScheduling event. Nothing is written when the pod
 * already carries this exact message, so the retries that every node change triggers cannot turn
 * into a stream of identical writes. The status patch replaces only the conditions (and the
 * nomination), and only while the pod is still the one read (its resourceVersion).
 */
export function unschedulableActions(
  pod: KubeObject,
  message: string,
  now: number,
  nominatedNodeName?: string,
): Action[] {
  const current = podScheduledCondition(pod)
  const renominated =
    nominatedNodeName !== undefined && podStatus(pod).nominatedNodeName !== nominatedNodeName
  if (
    current?.status === 'False' &&
    current.reason === 'Unschedulable' &&
    current.message === message &&
    !renominated
  )
    return []
  const condition: Json = {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    // the transition time moves only when the status does
    lastTransitionTime:
      current?.status === 'False' && typeof current.lastTransitionTime === 'string'
        ? current.lastTransitionTime
        : formatTime(now),
    reason: 'Unschedulable',
    message,
  }
  const others = conditionsOf(pod).filter((c) => c.type !== 'PodScheduled')
  const status: Json = {
    conditions: current
      ? conditionsOf(pod).map((c) => (c.type === 'PodScheduled' ? condition : c))
      : [...others, condition],
  }
  if (nominatedNodeName !== undefined) status.nominatedNodeName = nominatedNodeName
  const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status }
  return [
    {
      type: 'patch',
      resource: pods,
      namespace: pod.metadata.namespace,
      name: pod.metadata.name ?? '',
      subresource: 'status',
      patch,
    },
    { type: 'event', involved: pod, eventType: 'Warning', reason: 'FailedScheduling', message },
  ]
}
