import type { KubeObject } from '../../apimachinery/types'
import type { Cache } from '../runtime/types'
import { ownerRefsOf } from './graph'
import { keyOf } from './keys'
import type { WatchedKind, WatchedKinds } from './kinds'

/**
 * Owner uid → keys of the objects that reference it, so that an owner's disappearance can queue its
 * dependents without scanning every cache. It only steers which keys are queued: reconcile reads
 * the caches themselves, and the full resync rebuilds the index and visits every key anyway, so an
 * entry that went stale between resyncs costs at most a late or a wasted visit.
 */
export class DependentsIndex {
  private readonly byOwner = new Map<string, Set<string>>()
  private readonly ownersByKey = new Map<string, string[]>()

  /** Records what the cache now holds under the changed object's key (it may have gone). */
  track(kind: WatchedKind, changed: KubeObject, cache: Cache): void {
    const key = keyOf(kind.ref, changed)
    const current = cache.get(
      kind.ref,
      kind.namespaced ? changed.metadata.namespace : undefined,
      changed.metadata.name ?? '',
    )
    this.set(key, current ? ownerUids(current) : [])
  }

  dependentsOf(uid: string | undefined): string[] {
    return uid ? [...(this.byOwner.get(uid) ?? [])] : []
  }

  rebuild(cache: Cache, kinds: WatchedKinds): void {
    this.byOwner.clear()
    this.ownersByKey.clear()
    for (const kind of kinds.all)
      for (const o of cache.list(kind.ref)) this.set(keyOf(kind.ref, o), ownerUids(o))
  }

  private set(key: string, uids: string[]): void {
    for (const uid of this.ownersByKey.get(key) ?? []) {
      const keys = this.byOwner.get(uid)
      keys?.delete(key)
      if (keys && !keys.size) this.byOwner.delete(uid)
    }
    if (!uids.length) {
      this.ownersByKey.delete(key)
      return
    }
    this.ownersByKey.set(key, uids)
    for (const uid of uids) {
      let keys = this.byOwner.get(uid)
      if (!keys) this.byOwner.set(uid, (keys = new Set()))
      keys.add(key)
    }
  }
}

const ownerUids = (o: KubeObject): string[] =>
  ownerRefsOf(o)
    .map((r) => r.uid)
    .filter((u): u is string => typeof u === 'string' && u !== '')
