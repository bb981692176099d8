import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import { microTime } from '../../src/apimachinery/meta-time'
import { storeKinds } from '../../src/apis/store-strategy'
import { Log } from '../../durable-objects/kind-store/log'
import { StoreDeadlines } from '../../durable-objects/kind-store/deadlines'
import { newLease } from '../helpers'
import { api, openWatch } from './helpers'

const leasesStore = 'coordination.k8s.io/leases'
const leasesPath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
/** the node monitor grace period of this environment (EDGEPLANE_NODE_MONITOR_GRACE_PERIOD unset) */
const graceMs = 40_000
const storeOf = (name: string) => env.KIND_STORE.get(env.KIND_STORE.idFromName(name))
const alarmOf = (name: string) =>
  runInDurableObject(storeOf(name), (_i, state) => state.storage.getAlarm())

/** A renewal as a node makes it: a merge patch of the Lease's renewTime. */
const renew = (name: string, renewMs: number) =>
  api(
    'PATCH',
    `${leasesPath}/${name}`,
    { spec: { renewTime: microTime(renewMs) } },
    'application/merge-patch+json',
  )

function lease(name: string, renewMs: number): KubeObject {
  const { uid: _u, resourceVersion: _rv, ...metadata } = newLease(name, microTime(renewMs)).metadata
  return { ...newLease(name, microTime(renewMs)), metadata }
}

describe('node leases booked by their store', () => {
  it('books the alarm a millisecond past a new lease deadline; a renewal that moves it later sets none', async () => {
    const renewed = Date.now()
    expect((await api('POST', leasesPath, lease('n1', renewed))).status).toBe(201)
    expect(await alarmOf(leasesStore)).toBe(renewed + graceMs + 1)

    const again = renewed + 5000
    const patched = await renew('n1', again)
    expect(patched.status).toBe(200)
    expect(await alarmOf(leasesStore)).toBe(renewed + graceMs + 1)

    // The alarm for the old deadline finds the lease renewed: it books the new one, announcing nothing.
    expect(await runDurableObjectAlarm(storeOf(leasesStore))).toBe(true)
    expect(await alarmOf(leasesStore)).toBe(again + graceMs + 1)
  })

  it('announces a lease past its deadline once it is heard, again after a failure, and not again after a restart', async () => {
    await runInDurableObject(storeOf('test/lease-deadlines'), async (_i, state) => {
      const kinds = storeKinds({ nodeMonitorGracePeriodMs: graceMs })
      const log = new Log(state.storage.sql)
      const now = Date.now()
      state.storage.transactionSync(() => {
        for (const [name, renewMs] of [
          ['gone', now - graceMs - 1000],
          ['alive', now],
        ] as const) {
          const key = `kube-node-lease/${name}`
          log.append('ADDED', key, 'kube-node-lease', lease(name, renewMs), undefined, now)
        }
      })
      const first = new StoreDeadlines(state.storage, kinds, log)
      first.learn(leasesStore, kinds.ofStore(leasesStore)!)
      const told: string[][] = []
      const tell = (answer: boolean) => async (store: string, objects: KubeObject[]) => {
        expect(store).toBe(leasesStore)
        told.push(objects.map((o) => o.metadata.name ?? ''))
        return answer
      }

      await first.announce(now, tell(false))
      expect(first.nextAlarm()).toBe(now + 1000)
      await first.announce(now + 1000, tell(true))
      await first.announce(now + 2000, tell(true))
      expect(told).toEqual([['gone'], ['gone']])
      expect(first.nextAlarm()).toBe(now + graceMs + 1)

      // A new instance (the store evicted) reads what was announced from storage, its kind too.
      const restarted = new StoreDeadlines(state.storage, kinds, log)
      await restarted.announce(now + 3000, tell(true))
      expect(told).toHaveLength(2)
      await restarted.announce(now + graceMs + 1, tell(true))
      expect(told).toEqual([['gone'], ['gone'], ['alive']])
      expect(restarted.nextAlarm()).toBeUndefined()
    })
  })
})

describe('node leases that keep being renewed', () => {
  it('move the alarm to the next deadline when a renewal finds it about to fire', async () => {
    const now = Date.now()
    // Deadlines 3 s, 20 s and 30 s on.
    for (const [name, inMs] of [
      ['m1', 3000],
      ['m2', 20_000],
      ['m3', 30_000],
    ] as const)
      expect((await api('POST', leasesPath, lease(name, now + inMs - graceMs))).status).toBe(201)
    // An alarm run early finds nothing due: it books the earliest deadline as its own.
    expect(await runDurableObjectAlarm(storeOf(leasesStore))).toBe(true)
    expect(await alarmOf(leasesStore)).toBe(now + 3001)

    // m1 renewed within a few seconds of the alarm: it moves to m2's deadline, and does not fire.
    expect((await renew('m1', Date.now())).status).toBe(200)
    expect(await alarmOf(leasesStore)).toBe(now + 20_001)
    // A renewal far from it leaves it.
    expect((await renew('m3', Date.now())).status).toBe(200)
    expect(await alarmOf(leasesStore)).toBe(now + 20_001)
  })

  it('move it past a watcher that asked for bookmarks: a renewal sends it one', async () => {
    const listed = await api('GET', leasesPath)
    for (const l of listed.json.items) await api('DELETE', `${leasesPath}/${l.metadata.name}`)
    const now = Date.now()
    // Deadlines 3 s and 100 s on.
    expect((await api('POST', leasesPath, lease('b1', now + 3000 - graceMs))).status).toBe(201)
    expect((await api('POST', leasesPath, lease('b2', now + 100_000 - graceMs))).status).toBe(201)
    expect(await runDurableObjectAlarm(storeOf(leasesStore))).toBe(true)
    const watch = await openWatch(`${leasesPath}?watch=true&allowWatchBookmarks=true`)
    const shown = (await watch.received(2)).length
    expect(await alarmOf(leasesStore)).toBe(now + 3001)
    // b1 renewed to a deadline 70 s on: the alarm moves later, and the watcher has its bookmark.
    const renewTime = Date.now() + 70_000 - graceMs
    const renewed = await renew('b1', renewTime)
    expect(renewed.status).toBe(200)
    // (Compaction, due a minute after the writes with these settings, may keep it sooner.)
    const at = (await alarmOf(leasesStore))!
    expect(at).toBeGreaterThan(now + 50_000)
    expect(at).toBeLessThanOrEqual(renewTime + graceMs + 1)
    const events = (await watch.received(shown + 2)).slice(shown)
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'BOOKMARK'])
    expect(events[1]!.object.metadata.resourceVersion).toBe(renewed.json.metadata.resourceVersion)
    watch.close()
  })

  it('still announce the one that stopped at its deadline', async () => {
    await runInDurableObject(storeOf('test/lease-deadlines-moved'), async (_i, state) => {
      const kinds = storeKinds({ nodeMonitorGracePeriodMs: graceMs })
      const log = new Log(state.storage.sql)
      const t = Date.now()
      const write = (name: string, renewMs: number) => {
        const key = `kube-node-lease/${name}`
        const object = lease(name, renewMs)
        const previous = log.get(key)
        const type = previous ? 'MODIFIED' : 'ADDED'
        state.storage.transactionSync(() =>
          log.append(type, key, 'kube-node-lease', object, previous, renewMs),
        )
        return { type, key, object } as const
      }
      // `alive` renews every 10 s; `silent` last renewed 20 s before it first did, then stopped.
      write('silent', t - 20_000)
      const deadlines = new StoreDeadlines(state.storage, kinds, log)
      deadlines.learn(leasesStore, kinds.ofStore(leasesStore)!)
      deadlines.record(write('alive', t), t)
      expect(deadlines.booked).toBe(t + 20_001)
      for (const at of [t + 10_000, t + 16_000, t + 17_000]) {
        deadlines.record(write('alive', at), at)
        expect(deadlines.booked).toBe(t + 20_001)
      }
      const told: string[][] = []
      await deadlines.announce(t + 20_001, async (_store, objects) => {
        told.push(objects.map((o) => o.metadata.name ?? ''))
        return true
      })
      expect(told).toEqual([['silent']])

      // With `silent` announced, `alive` alone moves the booked time on with its renewals.
      expect(deadlines.nextAlarm()).toBe(t + 17_000 + graceMs + 1)
      for (const at of [t + 27_000, t + 37_000, t + 47_000])
        deadlines.record(write('alive', at), at)
      expect(deadlines.booked).toBe(t + 47_000 + graceMs + 1)
      expect(told).toHaveLength(1)
    })
  })
})
