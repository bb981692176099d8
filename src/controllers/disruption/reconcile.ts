import type { KubeObject } from '../../apimachinery/types'
import {
  matchesLabels,
  selectorFromLabelSelector,
  SelectorError,
  type MetaLabelSelector,
} from '../../apimachinery/labels'
import { pods } from '../resources'
import type { Action, Cache, Outcome } from '../runtime/types'
import { asRecord, jsonEqual } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { isPodReady } from '../shared/pods'
import { parseTime, formatTime } from '../../apimachinery/meta-time'
import { ExpectationError, expectedPods } from './expected'
import { podDisruptionBudgets } from './resources'

/** How long an eviction recorded in status.disruptedPods waits for its pod to go (DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000

export interface PdbCondition {
  type: string
  status: 'True' | 'False'
  reason: string
  message: string
  observedGeneration?: number
  lastTransitionTime: string
}

export interface PdbStatus {
  observedGeneration?: number
  disruptedPods?: Record<string, string>
  disruptionsAllowed: number
  currentHealthy: number
  desiredHealthy: number
  expectedPods: number
  conditions?: PdbCondition[]
}

/** The pods a budget selects: in its namespace, matching its selector (a missing selector selects none). */
export function selectedPods(pdb: KubeObject, cache: Cache): KubeObject[] {
  let selector
  try {
    selector = selectorFromLabelSelector(
      asRecord(pdb.spec).selector as MetaLabelSelector | undefined,
    )
  } catch (e) {
    if (e instanceof SelectorError) return []
    throw e
  }
  return cache
    .list(pods, pdb.metadata.namespace)
    .filter((p) => matchesLabels(selector, p.metadata.labels))
}

/**
 * apimeta.SetStatusCondition for DisruptionAllowed: lastTransitionTime moves only when the status
 * changes.
 */
function disruptionAllowedCondition(
  previous: PdbCondition[] | undefined,
  next: Omit<PdbCondition, 'type' | 'lastTransitionTime'>,
  now: number,
): PdbCondition[] {
  const others = (previous ?? []).filter((c) => c.type !== 'DisruptionAllowed')
  const current = (previous ?? []).find((c) => c.type === 'DisruptionAllowed')
  const lastTransitionTime =
    current && current.status === next.status ? current.lastTransitionTime : formatTime(now)
  return [...others, { type: 'DisruptionAllowed', ...next, lastTransitionTime }]
}

/**
 * The disruption controller's pass over one budget (pkg/controller/disruption): counts the
 * selected pods that are ready and neither being deleted nor recently evicted, compares them with
 * what the budget requires of its owners' scale, and writes status. Evictions the API recorded in
 * status.disruptedPods are forgotten once their pod is gone or being deleted, or after
 * DELETION_TIMEOUT_MS (with a warning that the pod was not deleted).
 */
export function reconcileDisruptionBudget(key: string, cache: Cache, now: number): Outcome {
  const { namespace, name } = splitKey(key)
  const pdb = cache.get(podDisruptionBudgets, namespace, name)
  if (!pdb || pdb.metadata.deletionTimestamp) return { actions: [] }
  const old = (pdb.status ?? {}) as Partial<PdbStatus>
  const generation = Number(pdb.metadata.generation ?? 0) || undefined
  const selected = selectedPods(pdb, cache)
  const actions: Action[] = []
  const event = (eventType: 'Normal' | 'Warning', reason: string, message: string): Action => ({
    type: 'event',
    involved: pdb,
    eventType,
    reason,
    message,
  })

  let expectation
  try {
    expectation = expectedPods(pdb, cache, selected)
  } catch (e) {
    if (!(e instanceof ExpectationError)) throw e
    // failSafe: no disruption is allowed while the budget cannot be computed.
    const status: PdbStatus = {
      ...(old as PdbStatus),
      observedGeneration: generation,
      disruptionsAllowed: 0,
      conditions: disruptionAllowedCondition(
        old.conditions,
        {
          status: 'False',
          reason: 'SyncFailed',
          message: e.message,
          observedGeneration: generation,
        },
        now,
      ),
    }
    if (jsonEqual(status, pdb.status)) return { actions: [] }
    return {
      actions: [
        event(
          'Warning',
          'CalculateExpectedPodCountFailed',
          `Failed to calculate the number of expected pods: ${e.message}`,
        ),
        updateStatus(pdb, status),
      ],
    }
  }

  const disrupted: Record<string, string> = {}
  let recheckMs: number | undefined
  const podNames = new Map(selected.map((p) => [p.metadata.name ?? '', p]))
  for (const [podName, at] of Object.entries(old.disruptedPods ?? {})) {
    const pod = podNames.get(podName)
    if (!pod || pod.metadata.deletionTimestamp) continue
    const since = parseTime(at)
    if (since === undefined) continue
    const expectedDeletion = since + DELETION_TIMEOUT_MS
    if (expectedDeletion <= now) {
      actions.push({
        type: 'event',
        involved: pod,
        eventType: 'Warning',
        reason: 'NotDeleted',
        message: `Pod was expected by PDB ${namespace}/${name} to be deleted but it wasn't`,
      })
      continue
    }
    disrupted[podName] = at
    recheckMs = Math.min(recheckMs ?? Infinity, expectedDeletion - now)
  }
  let currentHealthy = 0
  for (const pod of selected) {
    if (pod.metadata.deletionTimestamp || disrupted[pod.metadata.name ?? ''] !== undefined) continue
    if (isPodReady(pod)) currentHealthy++
  }
  const { expectedCount, desiredHealthy, unmanaged } = expectation
  const allowed = expectedCount <= 0 ? 0 : Math.max(0, currentHealthy - desiredHealthy)
  const status: PdbStatus = {
    observedGeneration: generation,
    disruptedPods: Object.keys(disrupted).length ? disrupted : undefined,
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    conditions: disruptionAllowedCondition(
      old.conditions,
      allowed > 0
        ? { status: 'True', reason: 'SufficientPods', message: '', observedGeneration: generation }
        : {
            status: 'False',
            reason: 'InsufficientPods',
            message: '',
            observedGeneration: generation,
          },
      now,
    ),
  }
  if (status.disruptedPods === undefined) delete status.disruptedPods
  if (status.observedGeneration === undefined) delete status.observedGeneration
  if (!jsonEqual(status, pdb.status)) {
    if (!selected.length) actions.push(event('Normal', 'NoPods', 'No matching pods found'))
    if (unmanaged.length) {
      actions.push(
        event(
          'Warning',
          'UnmanagedPods',
          `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(asRecord(pdb.spec).selector ?? null)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        ),
      )
    }
    actions.push(updateStatus(pdb, status))
  }
  return { actions, requeueAfterMs: recheckMs }
}

function updateStatus(pdb: KubeObject, status: PdbStatus): Action {
  return { type: 'updateStatus', resource: podDisruptionBudgets, object: { ...pdb, status } }
}
