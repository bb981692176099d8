import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome } from '../runtime/types'
import {
  deleteObject,
  removeFinalizer,
  setOwnerReferences,
  type PropagationPolicy,
} from './actions'
import {
  dependentsOf,
  FOREGROUND_FINALIZER,
  hasDependents,
  hasFinalizer,
  isBeingDeleted,
  ORPHAN_FINALIZER,
  ownerRefsOf,
  ownerState,
  ownerUidsIn,
} from './graph'
import { parseKey } from './keys'
import type { WatchedKind, WatchedKinds } from './kinds'

/**
 * What the collector does about one object that is not being deleted (upstream's
 * attemptToDeleteItem): nothing while every owner stands; drop the references to owners that are gone
 * or waiting in foreground deletion while another owner stands; otherwise delete the object.
 */
export function collectItem(
  cache: Cache,
  kinds: WatchedKinds,
  kind: WatchedKind,
  item: KubeObject,
  hasOwnDependents: (item: KubeObject) => boolean = (o) => hasDependents(cache, kinds, o, kind),
): Action[] {
  const refs = ownerRefsOf(item)
  if (!refs.length) return []
  const states = refs.map((ref) => ownerState(cache, kinds, item, ref))
  if (states.includes('solid')) {
    if (states.every((s) => s === 'solid')) return []
    return [
      setOwnerReferences(
        kind,
        item,
        refs.filter((_, i) => states[i] === 'solid'),
      ),
    ]
  }
  // An owner waits for this object, which has dependents of its own: delete in the foreground too,
  // so that the wait covers the whole subtree.
  if (states.includes('waiting') && hasOwnDependents(item))
    return [deleteObject(kind, item, 'Foreground')]
  return [deleteObject(kind, item, policyRecordedOn(item))]
}

/** An object that already carries a policy finalizer keeps that policy when it is collected. */
function policyRecordedOn(item: KubeObject): PropagationPolicy {
  if (hasFinalizer(item, ORPHAN_FINALIZER)) return 'Orphan'
  if (hasFinalizer(item, FOREGROUND_FINALIZER)) return 'Foreground'
  return 'Background'
}

/** Orphan policy: every dependent loses its reference to the owner, then the owner may go. */
export function orphanDependents(
  cache: Cache,
  kinds: WatchedKinds,
  kind: WatchedKind,
  owner: KubeObject,
): Action[] {
  const uid = owner.metadata.uid
  const actions: Action[] = dependentsOf(cache, kinds, owner, kind).map((d) =>
    setOwnerReferences(
      d.kind,
      d.object,
      ownerRefsOf(d.object).filter((r) => r.uid !== uid),
    ),
  )
  actions.push(removeFinalizer(kind, owner, ORPHAN_FINALIZER))
  return actions
}

/**
 * Foreground policy: every dependent not yet being deleted is collected (it sees this owner as
 * waiting); the owner's finalizer goes once no dependent with blockOwnerDeletion is left, including
 * dependents still finishing their own deletion. Dependents that do not block are deleted without
 * being waited for.
 */
export function deleteDependents(
  cache: Cache,
  kinds: WatchedKinds,
  kind: WatchedKind,
  owner: KubeObject,
): Action[] {
  const dependents = dependentsOf(cache, kinds, owner, kind)
  // One scan answers for every dependent whether it owns anything in turn.
  let owners: Set<string> | undefined
  const hasOwnDependents = (o: KubeObject) =>
    (owners ??= ownerUidsIn(
      cache,
      kinds,
      kind.namespaced ? owner.metadata.namespace : undefined,
    )).has(o.metadata.uid ?? '')
  const actions: Action[] = []
  for (const d of dependents) {
    if (!isBeingDeleted(d.object))
      actions.push(...collectItem(cache, kinds, d.kind, d.object, hasOwnDependents))
  }
  if (!dependents.some((d) => d.ref.blockOwnerDeletion === true))
    actions.push(removeFinalizer(kind, owner, FOREGROUND_FINALIZER))
  return actions
}

/** Reconciles one object named by a collector key. */
export function reconcileObject(key: string, cache: Cache, kinds: WatchedKinds): Outcome {
  const parsed = parseKey(key)
  const kind = parsed && kinds.ofResource(parsed)
  if (!parsed || !kind) return { actions: [] }
  const object = cache.get(kind.ref, kind.namespaced ? parsed.namespace : undefined, parsed.name)
  if (!object) return { actions: [] }
  if (!isBeingDeleted(object)) return { actions: collectItem(cache, kinds, kind, object) }
  // Orphaning comes first: once the references are gone nothing is left for a foreground wait.
  if (hasFinalizer(object, ORPHAN_FINALIZER))
    return { actions: orphanDependents(cache, kinds, kind, object) }
  if (hasFinalizer(object, FOREGROUND_FINALIZER))
    return { actions: deleteDependents(cache, kinds, kind, object) }
  // Deletion is a one-way trip already under way; its dependents are looked at once it is gone.
  return { actions: [] }
}
