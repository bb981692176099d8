import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import { pods } from '../resources'
import { filterMessage, unschedulableMessage } from './fit-error'
import {
  DISRUPTION_TARGET,
  PREEMPTION_BY_SCHEDULER,
  preempt,
  type PreemptionNode,
} from './preemption'
import { podSpec, podStatus } from './pods'
import { unschedulableActions } from './unschedulable'
import { formatTime } from '../../apimachinery/meta-time'

/**
 * The DisruptionTarget condition upstream's preemption sets on a victim before deleting it, so
 * the pod (and `kubectl describe`) tells why it is going away.
 */
function disruptionTargetPatch(victim: KubeObject, preemptor: KubeObject, now: number): Action {
  const schedulerName =
    typeof podSpec(preemptor).schedulerName === 'string'
      ? podSpec(preemptor).schedulerName
      : 'default-scheduler'
  const others = (
    Array.isArray(podStatus(victim).conditions)
      ? (podStatus(victim).conditions as Record<string, unknown>[])
      : []
  ).filter((c) => c.type !== DISRUPTION_TARGET)
  const condition = {
    type: DISRUPTION_TARGET,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: formatTime(now),
    reason: PREEMPTION_BY_SCHEDULER,
    message: `${String(schedulerName)}: preempting to accommodate a higher priority pod`,
  }
  return {
    type: 'patch',
    resource: pods,
    namespace: victim.metadata.namespace,
    name: victim.metadata.name ?? '',
    subresource: 'status',
    patch: { status: { conditions: [...others, condition] } },
  }
}

/**
 * What a failed attempt does: preempt when it can (a Preempted event on each victim and its
 * graceful deletion, then the pod's status with PodScheduled=False and status.nominatedNodeName,
 * and FailedScheduling with the filters' message), else record why nothing fits, preemption's
 * part included.
 */
export function failedAttemptActions(
  pod: KubeObject,
  nodes: readonly PreemptionNode[],
  podsOnNode: (node: string) => readonly KubeObject[],
  now: number,
): Action[] {
  const rejections = nodes.map((n) => n.rejection)
  if (nodes.length === 0)
    return unschedulableActions(pod, unschedulableMessage(pod, rejections), now)
  const outcome = preempt(pod, nodes, podsOnNode)
  if ('message' in outcome)
    return unschedulableActions(pod, unschedulableMessage(pod, rejections, outcome.message), now)

  const { nodeName, victims } = outcome.candidate
  const actions: Action[] = []
  for (const victim of victims) {
    actions.push(
      {
        type: 'event',
        involved: victim,
        eventType: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${pod.metadata.uid ?? ''} on node ${nodeName}`,
      },
      disruptionTargetPatch(victim, pod, now),
      {
        type: 'delete',
        resource: pods,
        namespace: victim.metadata.namespace,
        name: victim.metadata.name ?? '',
        preconditions: { uid: victim.metadata.uid },
      },
    )
  }
  return [...actions, ...unschedulableActions(pod, filterMessage(rejections), now, nodeName)]
}
