import type { KubeObject } from '../../apimachinery/types'
import {
  isHealthy,
  isFinished,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
} from './health'
import { ordinalOf, podRevision } from './identity'

/** One thing the StatefulSet controller does to its pods in a pass, in order. */
export type Step =
  | { type: 'create'; ordinal: number; revision: 'current' | 'update' }
  | { type: 'delete'; pod: KubeObject; why: 'finished' | 'condemned' | 'update' }
  | { type: 'identity'; pod: KubeObject }

export interface PlanInput {
  replicas: number
  /** spec.ordinals.start: the first ordinal of the range */
  start?: number
  /** the pods the set controls, each named `<set>-<ordinal>` */
  pods: readonly KubeObject[]
  /** OrderedReady: one pod at a time, each waiting for its predecessors */
  monotonic: boolean
  strategy: 'RollingUpdate' | 'OnDelete'
  partition: number
  currentRevision: string
  updateRevision: string
  minReadySeconds?: number
  now: number
  /** identityMatches && storageMatches: whether a live pod still carries its identity */
  identityOk?: (pod: KubeObject) => boolean
}

/**
 * updateStatefulSet's decisions, without I/O. Ordinals in [start, start+replicas) are the
 * replicas, any other member is condemned. Missing replicas are created (a finished one is
 * deleted first), at the current revision below the partition and the update revision above it.
 * With OrderedReady the pass stops at the first create, at the first replica not Running, Ready
 * and available, and while any pod terminates; condemned pods then go highest ordinal first, one
 * per pass and only once every replica is healthy. Finally a rolling update deletes the
 * highest-ordinal replica at or above the partition that is not at the update revision, one at a
 * time, waiting for each replacement to become healthy (in both policies).
 */
export function planOrdinals(input: PlanInput): Step[] {
  const { replicas, monotonic, now } = input
  const start = input.start ?? 0
  const minReady = input.minReadySeconds ?? 0
  const identityOk = input.identityOk ?? (() => true)
  const slots: (KubeObject | undefined)[] = Array.from({ length: replicas }, () => undefined)
  const condemned: KubeObject[] = []
  for (const pod of input.pods) {
    const ord = ordinalOf(pod)
    if (ord >= start && ord < start + replicas) slots[ord - start] = pod
    else if (ord >= 0) condemned.push(pod)
  }
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a))
  // The first unhealthy pod: a condemned pod in that position may be deleted even though unhealthy.
  // A missing replica counts as unhealthy too (upstream fills its slot before looking), so no pod is.
  const firstUnhealthySlot = slots.findIndex((p) => p === undefined || !isHealthy(p))
  const firstUnhealthy: KubeObject | undefined =
    firstUnhealthySlot >= 0
      ? slots[firstUnhealthySlot]
      : [...condemned].reverse().find((p) => !isHealthy(p))

  const steps: Step[] = []
  const revisionFor = (ord: number): 'current' | 'update' =>
    input.strategy === 'RollingUpdate' && ord < input.partition ? 'current' : 'update'
  // Slots created in this pass count as present but unhealthy for the rolling update below.
  const fresh = new Set<number>()
  for (let i = 0; i < replicas; i++) {
    const ord = start + i
    const pod = slots[i]
    if (pod && isFinished(pod) && !isTerminating(pod)) {
      steps.push({ type: 'delete', pod, why: 'finished' })
      if (monotonic) return steps
      fresh.add(i)
      continue
    }
    if (!pod) {
      steps.push({ type: 'create', ordinal: ord, revision: revisionFor(ord) })
      if (monotonic) return steps
      fresh.add(i)
      continue
    }
    if (isTerminating(pod)) {
      if (monotonic) return steps
      continue
    }
    if (monotonic && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now)))
      return steps
    if (!identityOk(pod)) steps.push({ type: 'identity', pod })
  }

  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return steps
      continue
    }
    if (
      monotonic &&
      pod !== firstUnhealthy &&
      (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))
    )
      return steps
    steps.push({ type: 'delete', pod, why: 'condemned' })
    if (monotonic) return steps
  }

  if (input.strategy === 'OnDelete') return steps
  for (let i = replicas - 1; i >= input.partition; i--) {
    const pod = slots[i]
    if (fresh.has(i) || !pod) return steps
    if (podRevision(pod) !== input.updateRevision && !isTerminating(pod)) {
      steps.push({ type: 'delete', pod, why: 'update' })
      return steps
    }
    if (!isHealthy(pod)) return steps
  }
  return steps
}
