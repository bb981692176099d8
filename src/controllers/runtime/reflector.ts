import type { ControllerBindings } from '../bindings'
import type { ChangeType, KubeObject } from '../../apimachinery/types'
import { storeFor } from '../../store-client/stores'
import { listPages } from '../../store-client/list-pages'
import { resourceDefOf } from '../resources'
import type { ResourceCache } from './cache'
import type { PassBudget } from './pass-budget'
import type { ResourceRef } from './resource-ref'

/** Who hears of what a reflector puts in its cache: the runners' event handlers, which queue keys. */
export interface ReflectorHandlers {
  /** every object of a (re)list, once the cache holds them */
  listed(objects: KubeObject[], now: number): void
  /** a change applied to the cache, with the object it replaced */
  changed(type: ChangeType, object: KubeObject, previous: KubeObject | undefined, now: number): void
}

/**
 * client-go's Reflector for one kind, run once per pass: lists the kind into its cache the first
 * time, then reads the store's change log on from the cache's resourceVersion until it is caught
 * up; a 410 (the log compacted past it) relists. A change older than the cache's copy is not
 * applied, and not handed on. Its store calls and CPU count against the pass's budget.
 */
export async function reflect(
  env: ControllerBindings,
  r: ResourceRef,
  cache: ResourceCache,
  handlers: ReflectorHandlers,
  budget: PassBudget,
  clock: () => number,
  changesPerRead: number,
): Promise<void> {
  const def = resourceDefOf(r)
  const store = storeFor(env, def)
  for (;;) {
    if (!cache.synced) {
      const objects: KubeObject[] = []
      let rv = ''
      for await (const page of listPages(env, def, {})) {
        budget.countCall()
        budget.computing(() => {
          for (const text of page.items) objects.push(JSON.parse(text) as KubeObject)
        })
        rv = page.resourceVersion
      }
      const now = clock()
      budget.computing(() => {
        // A relist (the log was compacted past the cache) also queues what the cached versions
        // concerned, those of objects deleted meanwhile among them, as their changes would have.
        const cached = cache.list()
        cache.reset(objects, Number(rv))
        handlers.listed([...cached, ...objects], now)
      })
      return
    }
    budget.countCall()
    const batch = await store.changesSince(cache.rv, changesPerRead)
    if (!batch.ok) {
      cache.synced = false
      continue
    }
    const now = clock()
    budget.computing(() => {
      for (const change of batch.value.changes) {
        const obj = JSON.parse(change.value) as KubeObject
        const { previous, applied } = cache.apply(change.type, obj)
        if (applied) handlers.changed(change.type, obj, previous, now)
      }
    })
    cache.rv = batch.value.rv
    if (!batch.value.more) return
  }
}
