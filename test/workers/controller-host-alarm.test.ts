import { afterEach, describe, expect, it, vi } from 'vitest'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { controllersOfHost, sharedPodsHost } from '../../src/controllers/hosts'
import { hostOf } from './helpers'

afterEach(() => {
  vi.useRealTimers()
})

describe('the alarm of a controller host', () => {
  it('is never set again to the time of the alarm it ran, however a notification lands in that millisecond', async () => {
    const [first, second] = controllersOfHost(sharedPodsHost)
    const host = hostOf(first!)
    // The clock stands still, as it does within a millisecond: the alarm, its pass and the notification share it.
    const t = Date.now() + 1000
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(t)
    await host.poke(first!)
    expect(await runInDurableObject(host, (_i, state) => state.storage.getAlarm())).toBe(t)
    // The alarm for t runs the first controller's pass; the second, never run yet, is due at once.
    expect(await runDurableObjectAlarm(host)).toBe(true)
    await host.poke(second!)
    const alarm = await runInDurableObject(host, (_i, state) => state.storage.getAlarm())
    expect(alarm).toBeGreaterThan(t)
  })

  it('replaces an alarm left well past its time when a notification lands', async () => {
    const [name] = controllersOfHost(sharedPodsHost)
    const host = hostOf(name!)
    // The host's clock runs a minute ahead of the runtime's, so the alarm it finds past due never fires on its own here.
    const t = Date.now() + 60_000
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(t)
    await host.poke(name!)
    await runInDurableObject(host, (_i, state) => state.storage.setAlarm(t - 5_000))
    await host.poke(name!)
    expect(await runInDurableObject(host, (_i, state) => state.storage.getAlarm())).toBe(t)
  })
})
