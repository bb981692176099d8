import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import { pods } from '../resources'
import { filterMessage, unschedulableMessage } from './fit-error'
import { preempt, type PreemptionNode } from './preemption'
import { unschedulableActions } from './unschedulable'

/**
 * What a failed attempt does: preempt when it can (a Preempted event on each victim and its
 * graceful deletion, then the pod's status with PodScheduled=False and status.nominatedNodeName,
 * and FailedScheduling with the filters' message), else record why nothing fits, preemption's
 * part included.
 */
export function failedAttemptActions(pod: KubeObject, nodes: readonly PreemptionNode[], podsOnNode: (node: string) => readonly KubeObject[], now: number): Action[] {
  const rejections = nodes.map((n) => n.rejection)
  if (nodes.length === 0) return unschedulableActions(pod, unschedulableMessage(pod, rejections), now)
  const outcome = preempt(pod, nodes, podsOnNode)
  if ('message' in outcome) return unschedulableActions(pod, unschedulableMessage(pod, rejections, outcome.message), now)

  const { nodeName, victims } = outcome.candidate
  const actions: Action[] = []
  for (const victim of victims) {
    actions.push(
      { type: 'event', involved: victim, eventType: 'Normal', reason: 'Preempted', message: `Preempted by pod ${pod.metadata.uid ?? ''} on node ${nodeName}` },
      { type: 'delete', resource: pods, namespace: victim.metadata.namespace, name: victim.metadata.name ?? '', preconditions: { uid: victim.metadata.uid } },
    )
  }
  return [...actions, ...unschedulableActions(pod, filterMessage(rejections), now, nodeName)]
}
