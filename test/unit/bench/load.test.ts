import { describe, expect, it } from 'vitest'
import { runLoad } from '../../../src/bench/load'
import { sleep } from '../../helpers'

describe('closed-loop load', () => {
  it('keeps exactly c requests in flight and stops at the count', async () => {
    let inFlight = 0
    let most = 0
    const seen: number[] = []
    const res = await runLoad({
      concurrency: 4,
      count: 40,
      timeLimitMs: 10_000,
      request: async (i) => {
        seen.push(i)
        most = Math.max(most, ++inFlight)
        await sleep(2)
        inFlight--
      },
    })
    expect(res).toMatchObject({ ok: 40, errors: 0, stoppedBy: 'count' })
    expect(most).toBe(4)
    expect(new Set(seen).size).toBe(40)
    expect(res.latency.count).toBe(40)
    expect(res.latency.p50).toBeGreaterThan(1)
    expect(res.perSecond).toBeGreaterThan(0)
  })

  it('stops by itself at the time bound', async () => {
    const t0 = performance.now()
    const res = await runLoad({
      concurrency: 2,
      count: 1_000_000,
      timeLimitMs: 150,
      request: () => sleep(10),
    })
    expect(res.stoppedBy).toBe('time')
    expect(performance.now() - t0).toBeLessThan(1_000)
    expect(res.ok).toBeGreaterThan(0)
    expect(res.ok).toBeLessThan(1_000)
  })

  it('counts failures apart and keeps their first message', async () => {
    const res = await runLoad({
      concurrency: 3,
      count: 10,
      timeLimitMs: 10_000,
      request: async (i) => {
        if (i % 2) throw new Error(`failed ${i}`)
      },
    })
    expect(res.ok).toBe(5)
    expect(res.errors).toBe(5)
    expect(res.firstError).toMatch(/^failed \d$/)
    expect(res.latency.count).toBe(5)
  })
})
