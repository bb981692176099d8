/**
 * The eviction subresource's decision (pkg/registry/core/pod/storage/eviction.go): whether a pod
 * may be deleted under the PodDisruptionBudgets that cover it, and the budget's status after the
 * eviction is charged to it.
 */
import type { KubeObject, Status } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import {
  isEverything,
  matchesLabels,
  selectorFromLabelSelector,
  SelectorError,
  type MetaLabelSelector,
} from '../../apimachinery/labels'
import { formatTime } from '../../apimachinery/meta-time'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** More recorded evictions than this in one budget's status refuses further ones. */
export const maxDisruptedPods = 2000

export const evictionRefusal = "Cannot evict pod as it would violate the pod's disruption budget."

export type EvictionDecision =
  /** delete the pod without touching any budget */
  | { type: 'delete' }
  /** write this status to the budget (resourceVersion as precondition), then delete the pod */
  | { type: 'charge'; pdb: KubeObject; status: Json }
  | { type: 'refuse'; status: Status }

/** The budgets covering a pod: those of its namespace whose non-empty selector matches its labels. */
export function budgetsFor(pod: KubeObject, pdbs: readonly KubeObject[]): KubeObject[] {
  return pdbs.filter((pdb) => {
    try {
      const selector = selectorFromLabelSelector(
        asRecord(pdb.spec).selector as MetaLabelSelector | undefined,
      )
      return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels)
    } catch (e) {
      if (e instanceof SelectorError) return false
      throw e
    }
  })
}

const phaseOf = (pod: KubeObject) => asRecord(pod.status).phase
const isReady = (pod: KubeObject) =>
  Array.isArray(asRecord(pod.status).conditions) &&
  (asRecord(pod.status).conditions as Json[]).some((c) => c.type === 'Ready' && c.status === 'True')

function tooManyRequests(message: string, retryAfterSeconds?: number): Status {
  const details: Status['details'] = { causes: [{ reason: 'DisruptionBudget', message }] }
  if (retryAfterSeconds) details.retryAfterSeconds = retryAfterSeconds
  return failure(429, 'TooManyRequests', evictionRefusal, details)
}

function forbiddenBudget(name: string, why: string): Status {
  return failure(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${why}`, {
    name,
    group: 'policy',
    kind: 'poddisruptionbudget',
  })
}

/**
 * What an eviction of `pod` does given its namespace's budgets. Pods that are pending, finished
 * or already being deleted are deleted at once, as are pods no budget covers; more than one
 * budget is an error; an unready pod is let go under `AlwaysAllow`, or under `IfHealthyBudget`
 * while the budget is healthy; any other pod needs a disruption the budget allows.
 */
export function decideEviction(
  pod: KubeObject,
  pdbs: readonly KubeObject[],
  now: number,
): EvictionDecision {
  const phase = phaseOf(pod)
  if (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    pod.metadata.deletionTimestamp
  )
    return { type: 'delete' }
  const covering = budgetsFor(pod, pdbs)
  if (!covering.length) return { type: 'delete' }
  if (covering.length > 1)
    return {
      type: 'refuse',
      status: failure(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      ),
    }
  const pdb = covering[0]!
  const name = pdb.metadata.name ?? ''
  const spec = asRecord(pdb.spec)
  const status = asRecord(pdb.status)
  const num = (v: unknown) => (typeof v === 'number' ? v : 0)
  if (!isReady(pod)) {
    if (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { type: 'delete' }
    if (num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0)
      return { type: 'delete' }
  }
  if (num(status.observedGeneration) < num(pdb.metadata.generation))
    return {
      type: 'refuse',
      status: tooManyRequests(
        `The disruption budget ${name} is still being processed by the server.`,
        10,
      ),
    }
  const allowed = num(status.disruptionsAllowed)
  if (allowed < 0)
    return { type: 'refuse', status: forbiddenBudget(name, 'pdb disruptions allowed is negative') }
  const disrupted = asRecord(status.disruptedPods)
  if (Object.keys(disrupted).length > maxDisruptedPods)
    return {
      type: 'refuse',
      status: forbiddenBudget(
        name,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      ),
    }
  if (allowed === 0)
    return {
      type: 'refuse',
      status: tooManyRequests(
        `The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`,
      ),
    }
  const next: Json = {
    ...status,
    disruptionsAllowed: allowed - 1,
    disruptedPods: { ...disrupted, [pod.metadata.name ?? '']: formatTime(now) },
  }
  if (allowed - 1 === 0) {
    const conditions = Array.isArray(status.conditions) ? (status.conditions as Json[]) : []
    const current = conditions.find((c) => c.type === 'DisruptionAllowed')
    const changed = current?.status !== 'False'
    next.conditions = [
      ...conditions.filter((c) => c.type !== 'DisruptionAllowed'),
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: status.observedGeneration,
        lastTransitionTime: changed ? formatTime(now) : current?.lastTransitionTime,
      },
    ]
  }
  return { type: 'charge', pdb, status: next }
}
