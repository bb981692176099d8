import { describe, expect, it } from 'vitest'
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { NotifyOutbox } from '../../durable-objects/kind-store/notify-outbox'

describe("a store's outbox of notifications", () => {
  it('keeps the controllers still to be told, once each, across an eviction of the store', async () => {
    const store = env.KIND_STORE.get(env.KIND_STORE.idFromName('outbox-test'))
    await runInDurableObject(store, (_i, state) => {
      const outbox = new NotifyOutbox(state.storage.sql)
      outbox.add('replicaset')
      outbox.add('replicaset')
      outbox.add('scheduler')
      outbox.remove('scheduler')
    })
    await evictDurableObject(store)
    const pending = await runInDurableObject(store, (_i, state) =>
      new NotifyOutbox(state.storage.sql).pending(),
    )
    expect(pending).toEqual(['replicaset'])
  })
})
