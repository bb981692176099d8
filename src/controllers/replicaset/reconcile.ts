import { selectorFromLabelSelector, type LabelSelector } from '../../apimachinery/labels'
import { pods, replicaSets } from '../resources'
import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { memoryChanges, nothingRemembered, withMemory, type Remembered } from '../runtime/memory'
import { refusedCreate, refusedDelete } from '../runtime/refusal'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { isPodActive } from '../shared/pods'
import { toReplicaSet } from '../shared/workloads'
import { createdPodEvent, createdPods, requestedCreates } from '../shared/created-pods'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'
import { claimPods } from './claim'
import { relatedPods } from './pods-to-delete'
import { createAction, deleteAction, manageReplicas } from './replicas'
import {
  availabilityRequeueMs,
  calculateStatus,
  statusChanged,
  type ReplicaFailure,
} from './status'
import { splitKey } from '../../apimachinery/object-key'

/** manageReplicasErr: the refused pod create or delete that stopped the previous pass, with the API's error text. */
function failureOf(refused: Refused | undefined): ReplicaFailure | undefined {
  const create = refusedCreate(refused, pods)
  if (create) return { reason: 'FailedCreate', message: create.message }
  const deleted = refusedDelete(refused, pods)
  if (deleted) return { reason: 'FailedDelete', message: deleted.message }
  return undefined
}

/**
 * syncReplicaSet, as a checklist: read the ReplicaSet (gone → nothing to do); claim the active pods
 * in its namespace (adopting and releasing by selector); unless it is being deleted, create or
 * delete pods to reach spec.replicas; compute the status and write it only when it changed; come
 * back when a ready pod is due to become available.
 *
 * The actions are ordered so that a failing write stops the least: ownership patches, then the
 * status (so ReplicaFailure is reported even while creates keep failing), then the events for what
 * the previous pass achieved, the creates in one run (the runner batches them), and each delete
 * followed by its event. The creates asked for are remembered under the key, so that the next pass
 * names the pods they made (see shared/created-pods.ts).
 */
export function reconcileReplicaSet(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
  memory: Remembered = nothingRemembered,
): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(replicaSets, namespace, name)
  if (!stored) return withMemory({ actions: [] }, memoryChanges(memory, [[key, undefined]]))
  const rs = toReplicaSet(stored)
  let selector: LabelSelector
  try {
    selector = selectorFromLabelSelector(rs.spec.selector)
  } catch {
    // An invalid selector cannot select pods; validation keeps it from being stored.
    return { actions: [] }
  }
  const all = cache.list(pods, namespace)
  const created = createdPods(memory, key, rs, all)
  const claim = claimPods(rs, selector, all.filter(isPodActive))
  const actions: Action[] = [...claim.actions]

  const changes = rs.metadata.deletionTimestamp
    ? { creates: [], deletes: [] }
    : manageReplicas(rs, selector, claim.owned, relatedPods(rs, cache), now)

  const failure = failureOf(refused)
  const status = calculateStatus(rs, claim.owned, failure, now)
  if (statusChanged(rs, status)) actions.push(statusWrite(replicaSets, stored, status))

  for (const pod of created) actions.push(createdPodEvent(rs, pod))
  if (failure)
    actions.push(
      event(
        rs,
        'Warning',
        failure.reason,
        `${failure.reason === 'FailedCreate' ? 'Error creating' : 'Error deleting'}: ${failure.message}`,
      ),
    )
  for (const pod of changes.creates) actions.push(createAction(pod))
  for (const pod of changes.deletes)
    actions.push(
      deleteAction(pod),
      event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`),
    )

  const known = all
    .filter((p) => controllerRefOf(p)?.uid === rs.metadata.uid)
    .map((p) => p.metadata.uid ?? '')
  const remembered = memoryChanges(memory, [
    [key, requestedCreates(rs, [...known, ...claim.adoptedUids], changes.creates.length)],
  ])

  const requeueAfterMs = availabilityRequeueMs(rs, claim.owned, now)
  return withMemory(
    requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs },
    remembered,
  )
}
