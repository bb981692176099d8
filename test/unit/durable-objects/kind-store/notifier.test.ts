import { describe, expect, it } from 'vitest'
import {
  Notifier,
  notifyTimeoutMs,
  type ChangeRoute,
} from '../../../../durable-objects/kind-store/notifier'
import type { KubeObject } from '../../../../src/apimachinery/types'

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
}
const change = { type: 'MODIFIED' as const, object: pod }
const settle = () => new Promise((r) => setTimeout(r, 0))

/** A route to one controller whose notifications answer as the test says; the retries wait on the test too. */
function harness(pending: string[] = []) {
  const outbox = new Set(pending)
  const calls: { resolve: () => void; reject: (e: Error) => void }[] = []
  /** the back-offs of failed notifications (each send's answer timeout is in `timeouts`) */
  const waits: { ms: number; then: () => void }[] = []
  const timeouts: { ms: number; then: () => void; cancelled?: boolean }[] = []
  const due: { name: string; store: string; objects: KubeObject[] }[] = []
  /** the times the store's alarm was booked for */
  const alarms: number[] = []
  const call = () => new Promise<void>((resolve, reject) => calls.push({ resolve, reject }))
  const route: ChangeRoute = {
    watchersOf: () => ['replicaset'],
    poke: call,
    deadlineWatchersOf: (store) =>
      store === 'coordination.k8s.io/leases' ? ['node-lifecycle'] : [],
    pokeDue: (name, store, objects) => {
      due.push({ name, store, objects })
      return call()
    },
  }
  const notifier = new Notifier(
    route,
    true,
    { pending: () => [...outbox], add: (n) => outbox.add(n), remove: (n) => outbox.delete(n) },
    {
      wait: (ms, then) => {
        const wait: { ms: number; then: () => void; cancelled?: boolean } = { ms, then }
        ;(ms === notifyTimeoutMs ? timeouts : waits).push(wait)
        return () => {
          wait.cancelled = true
        }
      },
      alarmBy: (at) => alarms.push(at),
    },
  )
  return { calls, waits, timeouts, due, notifier, outbox, alarms }
}

const lease: KubeObject = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'n1', namespace: 'kube-node-lease' },
}

describe('how a store tells controllers of its changes', () => {
  it('folds the changes made while a notification is in flight into one more, and books no alarm', async () => {
    const { calls, notifier, alarms } = harness()
    notifier.notify('core/pods', change)
    notifier.notify('core/pods', change)
    notifier.notify('core/pods', change)
    await settle()
    expect(calls).toHaveLength(1)
    calls[0]!.resolve()
    await settle()
    expect(calls).toHaveLength(2)
    calls[1]!.resolve()
    await settle()
    expect(calls).toHaveLength(2)
    expect(alarms).toEqual([])
  })

  it('sends a notification that failed again after a back-off, the changes meanwhile riding on it', async () => {
    const { calls, waits, notifier } = harness()
    notifier.notify('core/pods', change)
    await settle()
    calls[0]!.reject(new Error('Network connection lost'))
    await settle()
    expect(waits.map((w) => w.ms)).toEqual([500])
    // A change while the retry waits sends nothing of its own.
    notifier.notify('core/pods', change)
    await settle()
    expect(calls).toHaveLength(1)
    waits[0]!.then()
    await settle()
    expect(calls).toHaveLength(2)
    calls[1]!.reject(new Error('Durable Object is overloaded'))
    await settle()
    expect(waits.map((w) => w.ms)).toEqual([500, 1000])
    waits[1]!.then()
    await settle()
    calls[2]!.resolve()
    await settle()
    // Delivered: nothing more is sent until the next change, which goes out at once.
    expect(calls).toHaveLength(3)
    notifier.notify('core/pods', change)
    await settle()
    expect(calls).toHaveLength(4)
  })

  it("sends again a notification that is never answered, once its timeout passes, with the store's alarm booked for it", async () => {
    const { calls, waits, timeouts, notifier, alarms } = harness()
    notifier.notify('core/pods', change)
    await settle()
    expect(calls).toHaveLength(1)
    // The host never answers: later changes wait on it, until the timeout counts it as failed.
    notifier.notify('core/pods', change)
    await settle()
    expect(calls).toHaveLength(1)
    const before = Date.now()
    timeouts[0]!.then()
    await settle()
    expect(waits.map((w) => w.ms)).toEqual([500])
    // Should the store hibernate before that timer, its alarm wakes it to send again.
    expect(alarms).toHaveLength(1)
    expect(alarms[0]).toBeGreaterThanOrEqual(before + 500)
    expect(alarms[0]).toBeLessThan(before + notifyTimeoutMs)
    waits[0]!.then()
    await settle()
    expect(calls).toHaveLength(2)
    // A late answer to the first changes nothing: the second is what counts.
    calls[0]!.resolve()
    calls[1]!.resolve()
    await settle()
    expect(calls).toHaveLength(2)
    // An answer in time cancels its timeout.
    expect(timeouts).toHaveLength(2)
    expect(timeouts[1]!.cancelled).toBe(true)
  })

  it('keeps a controller in the outbox until a notification after its last change is delivered', async () => {
    const { calls, notifier, outbox } = harness()
    notifier.notify('core/pods', change)
    await settle()
    expect([...outbox]).toEqual(['replicaset'])
    // A change while the first is in flight: delivering the first is not enough.
    notifier.notify('core/pods', change)
    calls[0]!.resolve()
    await settle()
    expect([...outbox]).toEqual(['replicaset'])
    calls[1]!.reject(new Error('Network connection lost'))
    await settle()
    expect([...outbox]).toEqual(['replicaset'])
  })

  it('sends again, after a restart, what the outbox still holds', async () => {
    const { calls, notifier, outbox } = harness(['replicaset', 'scheduler'])
    expect(calls).toHaveLength(0)
    notifier.resume()
    await settle()
    expect(calls).toHaveLength(2)
    for (const c of calls) c.resolve()
    await settle()
    expect([...outbox]).toEqual([])
  })

  it('tells the controllers watching the deadlines of a store of the objects past theirs, and whether they heard', async () => {
    const { calls, waits, due, notifier } = harness()
    const heard = notifier.notifyDue('coordination.k8s.io/leases', [lease])
    expect(await notifier.notifyDue('core/pods', [pod])).toBe(true)
    expect(await notifier.notifyDue('coordination.k8s.io/leases', [])).toBe(true)
    await settle()
    expect(due).toEqual([
      { name: 'node-lifecycle', store: 'coordination.k8s.io/leases', objects: [lease] },
    ])
    calls[0]!.resolve()
    expect(await heard).toBe(true)

    // Not heard: the store keeps the deadline and announces it again; the notifier retries nothing.
    const lost = notifier.notifyDue('coordination.k8s.io/leases', [lease])
    await settle()
    calls[1]!.reject(new Error('Network connection lost'))
    expect(await lost).toBe(false)
    expect(waits).toEqual([])
  })

  it('tells nobody when notifications are off', async () => {
    const calls: string[] = []
    const route: ChangeRoute = {
      watchersOf: () => ['replicaset'],
      poke: async (name) => void calls.push(name),
      deadlineWatchersOf: () => ['node-lifecycle'],
      pokeDue: async (name) => void calls.push(name),
    }
    const notifier = new Notifier(route, false, {
      pending: () => [],
      add: () => {},
      remove: () => {},
    })
    notifier.notify('core/pods', change)
    expect(await notifier.notifyDue('coordination.k8s.io/leases', [lease])).toBe(true)
    await settle()
    expect(calls).toEqual([])
  })
})
