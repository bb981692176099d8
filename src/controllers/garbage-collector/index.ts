import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { DependentsIndex } from './dependents-index'
import {
  isBeingDeleted,
  isDeletingDependents,
  isOrphaningDependents,
  lookUpOwner,
  ownerRefsOf,
} from './graph'
import { keyOf } from './keys'
import { WatchedKinds } from './kinds'
import { reconcileObject } from './reconcile'

/** Objects the collector has anything to do with: dependents, and owners deleted with a policy. */
const needsCollector = (o: KubeObject): boolean =>
  ownerRefsOf(o).length > 0 || isOrphaningDependents(o) || isDeletingDependents(o)

/** What the collector reads of an object besides its deletion: its owners and finalizers. */
const ownershipOf = (o: KubeObject): string =>
  JSON.stringify([o.metadata.ownerReferences ?? [], o.metadata.finalizers ?? []])

/**
 * The garbage collector: deletes objects whose owners are all gone, carries out foreground and
 * orphan deletion of owners, and drops references to owners that are gone while another owner
 * stands. Keys name objects of any watched kind (see `objectKey`).
 *
 * The runner syncs the watched caches in the order given, before it reconciles anything, so
 * `resources` should list dependents before their owners (pods before replicasets before
 * deployments): an owner created before a dependent that is in the cache is then in the cache too,
 * and an owner missing from its synced cache really is gone. An owner whose kind is not watched
 * is never taken for gone.
 */
export function garbageCollector(resources: readonly ResourceRef[]): ControllerDefinition {
  const kinds = new WatchedKinds(resources)
  const index = new DependentsIndex()

  const keysFor = (resource: ResourceRef, object: KubeObject, cache: Cache): string[] => {
    const kind = kinds.ofResource(resource)
    if (!kind) return []
    index.track(kind, object, cache)
    const current = cache.get(
      kind.ref,
      kind.namespaced ? object.metadata.namespace : undefined,
      object.metadata.name ?? '',
    )
    const keys: string[] = []
    // An owner in foreground deletion waits on this object. It goes first: its pass settles all
    // its dependents with one scan, which their own passes would each repeat.
    for (const ref of ownerRefsOf(object)) {
      const owner = ownerKeyIfWaiting(cache, kinds, object, ref)
      if (owner) keys.push(owner)
    }
    if (current && needsCollector(current)) keys.push(keyOf(kind.ref, current))
    // Dependents of an object that went away, was replaced by a namesake or is being deleted.
    const present = current !== undefined && current.metadata.uid === object.metadata.uid
    if (!present || isBeingDeleted(object)) keys.push(...index.dependentsOf(object.metadata.uid))
    return [...new Set(keys)]
  }

  return {
    name: 'garbage-collector',
    watches: {
      kinds: kinds.all.map((k) => k.ref),
      // Owner references, finalizers, uids and deletion are all it reads, of every kind: metadata only.
      // Its writes are deletes and merge patches of finalizers, never a whole object.
      reads: () => ({}),
      // The collector acts on owner references and deletions only: objects nobody owns, and updates
      // that leave owners, finalizers and deletion as they were (status, spec, labels), give it nothing
      // to do; the next pass still indexes them.
      wakesOn: (_resource, type, object, previous) => {
        if (type === 'DELETED' || object.metadata.deletionTimestamp) return true
        if (!previous) return needsCollector(object)
        return ownershipOf(object) !== ownershipOf(previous)
      },
      keysFor,
      allKeys(cache: Cache): string[] {
        index.rebuild(cache, kinds)
        // Owners being deleted with a policy first, for the same reason as in keysFor.
        const owners: string[] = []
        const dependents: string[] = []
        for (const kind of kinds.all) {
          for (const o of cache.list(kind.ref)) {
            if (isOrphaningDependents(o) || isDeletingDependents(o)) owners.push(keyOf(kind.ref, o))
            else if (ownerRefsOf(o).length) dependents.push(keyOf(kind.ref, o))
          }
        }
        return [...owners, ...dependents]
      },
    },
    reconcile: (key, cache) => reconcileObject(key, cache, kinds),
  }
}

function ownerKeyIfWaiting(
  cache: Cache,
  kinds: WatchedKinds,
  dependent: KubeObject,
  ref: OwnerReference,
): string | undefined {
  const lookup = lookUpOwner(cache, kinds, dependent, ref)
  return lookup?.owner && isDeletingDependents(lookup.owner)
    ? keyOf(lookup.kind.ref, lookup.owner)
    : undefined
}

export { garbageCollectedResources } from './resources'
export { objectKey, parseKey } from './keys'
export { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './graph'
export type { DeleteAction, PropagationPolicy } from './actions'
