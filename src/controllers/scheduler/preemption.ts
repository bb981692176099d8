import type { KubeObject } from '../../apimachinery/types'
import { checkResources, type NodeLoad } from './filter'
import type { Rejection } from './rejection'
import {
  NO_PREEMPTION_VICTIMS,
  PREEMPTION_NEVER,
  PREEMPTION_NOT_HELPFUL,
  histogram,
} from './fit-error'
import { isTerminal, podSpec, podStatus } from './pods'
import { podRequests, type ResourceList } from './requests'

/**
 * kube-scheduler's DefaultPreemption (PostFilter), in its default form: for a pod no node fits,
 * on each node that failed on resources alone, evict every pod of lower priority, check the pod
 * fits then, and reprieve the evicted pods back, most important first, while it still does; the
 * rest are that node's victims. The node whose victims matter least is chosen. PodDisruptionBudgets
 * are not weighed.
 */

export const DISRUPTION_TARGET = 'DisruptionTarget'
export const PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler'

/** A pod being deleted because the scheduler preempted it (its DisruptionTarget condition says so). */
export function terminatingByPreemption(pod: KubeObject): boolean {
  if (!pod.metadata.deletionTimestamp) return false
  const conditions = Array.isArray(podStatus(pod).conditions)
    ? (podStatus(pod).conditions as Record<string, unknown>[])
    : []
  const target = conditions.find((c) => c.type === DISRUPTION_TARGET)
  return target?.status === 'True' && target.reason === PREEMPTION_BY_SCHEDULER
}

export const NOT_ELIGIBLE_TERMINATING =
  'not eligible due to a terminating pod on the nominated node.'

/** spec.priority, 0 when unset (corev1helpers.PodPriority). */
export function podPriority(pod: KubeObject): number {
  const p = podSpec(pod).priority
  return typeof p === 'number' ? p : 0
}

export function nominatedNodeOf(pod: KubeObject): string {
  const n = podStatus(pod).nominatedNodeName
  return typeof n === 'string' ? n : ''
}

const startTimeOf = (pod: KubeObject): number => {
  const t = podStatus(pod).startTime ?? pod.metadata.creationTimestamp
  const ms = typeof t === 'string' ? Date.parse(t) : NaN
  return Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms
}

/** MoreImportantPod: higher priority first, then the one that started earlier. */
export function moreImportant(a: KubeObject, b: KubeObject): number {
  const byPriority = podPriority(b) - podPriority(a)
  return byPriority !== 0 ? byPriority : startTimeOf(a) - startTimeOf(b)
}

/** One node the filters rejected: what it holds, and which pods run on it. */
export interface PreemptionNode {
  name: string
  rejection: Rejection
  allocatable: ResourceList
  load: NodeLoad
  /** the bound, unfinished pods on the node */
  pods: readonly KubeObject[]
}

export interface Candidate {
  nodeName: string
  /** most important first */
  victims: KubeObject[]
}

export type PreemptionOutcome = { candidate: Candidate } | { message: string }

function without(load: NodeLoad, pod: KubeObject, sign: 1 | -1): NodeLoad {
  const requested = { ...load.requested }
  for (const [k, v] of Object.entries(podRequests(pod)))
    requested[k] = (requested[k] ?? 0) - sign * v
  return { requested, podCount: load.podCount - sign }
}

/** SelectVictimsOnNode: the victims, or the reasons the node cannot be made to fit. */
export function selectVictims(
  pod: KubeObject,
  request: ResourceList,
  node: PreemptionNode,
): KubeObject[] | string[] {
  const priority = podPriority(pod)
  const potential = node.pods.filter(
    (p) => !p.metadata.deletionTimestamp && !isTerminal(p) && podPriority(p) < priority,
  )
  if (potential.length === 0) return [NO_PREEMPTION_VICTIMS]
  let load = node.load
  for (const p of potential) load = without(load, p, 1)
  const stillShort = checkResources(request, node.allocatable, load)
  if (stillShort) return stillShort.reasons
  const victims: KubeObject[] = []
  for (const p of [...potential].sort(moreImportant)) {
    const back = without(load, p, -1)
    if (checkResources(request, node.allocatable, back)) victims.push(p)
    else load = back
  }
  return victims
}

/**
 * pickOneNodeForPreemption: the lowest highest-priority victim, then the lowest sum of victim
 * priorities, then the fewest victims, then the latest start of the highest-priority victims; the
 * first node in the list when all are equal.
 */
export function pickCandidate(candidates: readonly Candidate[]): Candidate | undefined {
  const offset = 2 ** 31
  const keys = (c: Candidate): number[] => {
    const top = podPriority(c.victims[0]!)
    return [
      top,
      c.victims.reduce((sum, v) => sum + podPriority(v) + offset, 0),
      c.victims.length,
      -Math.min(...c.victims.filter((v) => podPriority(v) === top).map(startTimeOf)),
    ]
  }
  let best: { c: Candidate; k: number[] } | undefined
  for (const c of candidates) {
    const k = keys(c)
    const i = best ? k.findIndex((v, j) => v !== best!.k[j]) : -1
    if (!best || (i >= 0 && k[i]! < best.k[i]!)) best = { c, k }
  }
  return best?.c
}

/**
 * PodEligibleToPreemptOthers: a pod with preemptionPolicy Never never preempts, and a pod whose
 * nominated node still has a lower-priority pod terminating by preemption waits for it instead of
 * preempting more.
 */
export function ineligibility(
  pod: KubeObject,
  podsOnNode: (node: string) => readonly KubeObject[],
): string | undefined {
  if (podSpec(pod).preemptionPolicy === 'Never') return PREEMPTION_NEVER
  const nominated = nominatedNodeOf(pod)
  if (!nominated) return undefined
  const priority = podPriority(pod)
  return podsOnNode(nominated).some((p) => terminatingByPreemption(p) && podPriority(p) < priority)
    ? NOT_ELIGIBLE_TERMINATING
    : undefined
}

/**
 * The preemption attempt for a pod every node rejected (`nodes`, one per node of the cluster):
 * the chosen candidate, or the PostFilter message saying why there is none.
 */
export function preempt(
  pod: KubeObject,
  nodes: readonly PreemptionNode[],
  podsOnNode: (node: string) => readonly KubeObject[],
): PreemptionOutcome {
  const notEligible = ineligibility(pod, podsOnNode)
  if (notEligible) return { message: `preemption: ${notEligible}` }
  const request = podRequests(pod)
  const candidates: Candidate[] = []
  const reasons: string[] = []
  for (const node of nodes) {
    if (!node.rejection.resolvable) {
      reasons.push(PREEMPTION_NOT_HELPFUL)
      continue
    }
    const picked = selectVictims(pod, request, node)
    if (picked.length === 0) reasons.push(NO_PREEMPTION_VICTIMS)
    else if (typeof picked[0] !== 'string')
      candidates.push({ nodeName: node.name, victims: picked as KubeObject[] })
    else reasons.push(...(picked as string[]))
  }
  const candidate = pickCandidate(candidates)
  if (candidate) return { candidate }
  return { message: `preemption: 0/${nodes.length} nodes are available: ${histogram(reasons)}.` }
}
