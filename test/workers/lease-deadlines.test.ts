import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import { microTime } from '../../src/apimachinery/meta-time'
import { storeKinds } from '../../src/apis/store-strategy'
import { Log } from '../../durable-objects/kind-store/log'
import { StoreDeadlines } from '../../durable-objects/kind-store/deadlines'
import { newLease } from '../helpers'
import { api } from './helpers'

const leasesStore = 'coordination.k8s.io/leases'
const leasesPath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
/** the node monitor grace period of this environment (EDGEPLANE_NODE_MONITOR_GRACE_PERIOD unset) */
const graceMs = 40_000
const storeOf = (name: string) => env.KIND_STORE.get(env.KIND_STORE.idFromName(name))
const alarmOf = (name: string) =>
  runInDurableObject(storeOf(name), (_i, state) => state.storage.getAlarm())

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
    const patched = await api(
      'PATCH',
      `${leasesPath}/n1`,
      { spec: { renewTime: microTime(again) } },
      'application/merge-patch+json',
    )
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
