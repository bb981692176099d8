import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import type { Cache } from '../runtime/types'
import { ownedBy } from '../runtime/lookups'
import type { WatchedKind, WatchedKinds } from './kinds'

/** Recorded by the API server for `propagationPolicy: Orphan`: dependents are released first. */
export const ORPHAN_FINALIZER = 'orphan'
/** Recorded for `propagationPolicy: Foreground`: blocking dependents are deleted first. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion'

export const ownerRefsOf = (o: KubeObject): OwnerReference[] =>
  Array.isArray(o.metadata.ownerReferences) ? o.metadata.ownerReferences : []

export const hasFinalizer = (o: KubeObject, finalizer: string): boolean =>
  (o.metadata.finalizers ?? []).includes(finalizer)

export const isBeingDeleted = (o: KubeObject): boolean => !!o.metadata.deletionTimestamp

/** An owner in foreground deletion: it waits for its blocking dependents to go. */
export const isDeletingDependents = (o: KubeObject): boolean =>
  isBeingDeleted(o) && hasFinalizer(o, FOREGROUND_FINALIZER)

/** An owner being deleted with the orphan policy: its dependents lose their reference to it. */
export const isOrphaningDependents = (o: KubeObject): boolean =>
  isBeingDeleted(o) && hasFinalizer(o, ORPHAN_FINALIZER)

/**
 * How a dependent's reference to an owner stands (upstream's classifyReferences):
 * - `solid`: the owner exists and is not deleting its dependents, so the dependent stays;
 * - `dangling`: no object of that kind, namespace and name carries the referenced uid;
 * - `waiting`: the owner is in foreground deletion and waits for its dependents.
 * An owner whose kind is not watched (or a reference that cannot resolve, such as a namespaced owner
 * of a cluster-scoped object) cannot be proven absent, and only proof of absence deletes anything,
 * so it counts as solid.
 */
export type OwnerState = 'solid' | 'dangling' | 'waiting'

/**
 * Finds the object an ownerReference points to: `owner` is undefined when no object of that kind,
 * namespace and name carries the referenced uid. Undefined as a whole when the reference cannot be
 * looked up (a kind that is not watched, or a namespaced owner of a cluster-scoped object).
 */
export function lookUpOwner(
  cache: Cache,
  kinds: WatchedKinds,
  dependent: KubeObject,
  ref: OwnerReference,
): { kind: WatchedKind; owner: KubeObject | undefined } | undefined {
  const kind = kinds.ofOwnerRef(ref)
  if (!kind) return undefined
  const namespace = kind.namespaced ? dependent.metadata.namespace : undefined
  if (kind.namespaced && !namespace) return undefined
  const found = cache.get(kind.ref, namespace, ref.name)
  return { kind, owner: found && found.metadata.uid === ref.uid ? found : undefined }
}

export function ownerState(
  cache: Cache,
  kinds: WatchedKinds,
  dependent: KubeObject,
  ref: OwnerReference,
): OwnerState {
  const lookup = lookUpOwner(cache, kinds, dependent, ref)
  if (!lookup) return 'solid'
  if (!lookup.owner) return 'dangling'
  return isDeletingDependents(lookup.owner) ? 'waiting' : 'solid'
}

export interface Dependent {
  kind: WatchedKind
  object: KubeObject
  /** the dependent's reference to the owner it was found for */
  ref: OwnerReference
}

/**
 * Every watched object that references `owner` by uid. A namespaced owner can only own objects in
 * its own namespace; a cluster-scoped owner may own objects anywhere.
 */
export function dependentsOf(
  cache: Cache,
  kinds: WatchedKinds,
  owner: KubeObject,
  ownerKind: WatchedKind,
): Dependent[] {
  const uid = owner.metadata.uid
  if (!uid) return []
  const namespace = ownerKind.namespaced ? owner.metadata.namespace : undefined
  const out: Dependent[] = []
  for (const kind of kinds.all) {
    if (namespace !== undefined && !kind.namespaced) continue
    for (const object of cache.list(kind.ref, namespace)) {
      const ref = ownerRefsOf(object).find((r) => r.uid === uid)
      if (ref) out.push({ kind, object, ref })
    }
  }
  return out
}

export function hasDependents(
  cache: Cache,
  kinds: WatchedKinds,
  owner: KubeObject,
  ownerKind: WatchedKind,
): boolean {
  const uid = owner.metadata.uid
  if (!uid) return false
  const namespace = ownerKind.namespaced ? owner.metadata.namespace : undefined
  for (const kind of kinds.all) {
    if (namespace !== undefined && !kind.namespaced) continue
    if (
      ownedBy(cache, kind.ref, uid).some(
        (o) => namespace === undefined || o.metadata.namespace === namespace,
      )
    )
      return true
  }
  return false
}

/** The uids that some watched object in `namespace` (every namespace when undefined) names as its owner. */
export function ownerUidsIn(
  cache: Cache,
  kinds: WatchedKinds,
  namespace: string | undefined,
): Set<string> {
  const uids = new Set<string>()
  for (const kind of kinds.all) {
    if (namespace !== undefined && !kind.namespaced) continue
    for (const o of cache.list(kind.ref, namespace)) for (const r of ownerRefsOf(o)) uids.add(r.uid)
  }
  return uids
}
