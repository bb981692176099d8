/**
 * An isolate's copy of what some stores hold, for admission to read on every write: re-checked (one
 * resourceVersion call per store) at most once every `recheckMs`, rebuilt only when a store changed,
 * and re-checked at once after `forget` (a write through this isolate). Changes made through other
 * isolates take effect within `recheckMs`, as kube-apiserver's informers do within their watch
 * latency.
 *
 * A request never waits on another request's refresh: its store calls belong to that request, and
 * if that request is cancelled (its client went away) they never settle, so every request waiting
 * on them would hang. While one refreshes, the others use the snapshot there is.
 */
import type { AdmissionBindings } from './bindings'
import type { ResourceDef } from '../apis/resource-def'
import { storeFor } from '../store-client/stores'
import { allItems, listPages } from '../store-client/list-pages'

interface Snapshot<T> {
  value: T
  revisions: number[]
  checkedAt: number
}

/** A refresh that has not settled in this long belonged to a request that is gone: start another. */
const abandonedRefreshMs = 10_000

export interface StoredSnapshot<T> {
  get(env: AdmissionBindings): Promise<T>
  /** Makes the next request re-read the stores. */
  forget(): void
}

/** `build` turns every store's objects (JSON texts, in the order of `defs`) into the value kept. */
export function storedSnapshot<T>(
  defs: readonly ResourceDef[],
  recheckMs: number,
  build: (lists: string[][]) => T,
): StoredSnapshot<T> {
  let snapshot: Snapshot<T> | undefined
  let pending: { startedAt: number; done: Promise<Snapshot<T>> } | undefined

  async function refresh(
    env: AdmissionBindings,
    current: Snapshot<T> | undefined,
  ): Promise<Snapshot<T>> {
    const checkedAt = Date.now()
    const revisions = await Promise.all(defs.map((def) => storeFor(env, def).revision()))
    if (current && revisions.every((rv, i) => rv === current.revisions[i]))
      return { ...current, checkedAt }
    const lists = await Promise.all(defs.map((def) => allItems(listPages(env, def, {}))))
    return { value: build(lists), revisions, checkedAt }
  }

  return {
    async get(env: AdmissionBindings): Promise<T> {
      if (!snapshot || Date.now() - snapshot.checkedAt >= recheckMs) {
        if (snapshot && pending && Date.now() - pending.startedAt < abandonedRefreshMs)
          return snapshot.value
        const mine = { startedAt: Date.now(), done: refresh(env, snapshot) }
        pending = mine
        try {
          snapshot = await mine.done
        } finally {
          if (pending === mine) pending = undefined
        }
      }
      return snapshot.value
    },
    forget(): void {
      if (snapshot) snapshot.checkedAt = 0
    },
  }
}
