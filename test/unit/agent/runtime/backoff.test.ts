import { describe, expect, it } from 'vitest'
import {
  crashBackoffFromEnv,
  DEFAULT_CRASH_BACKOFF,
  nextCrashDelay,
  RetryBackoff,
  WATCH_RECONNECT,
  type CrashLoopState,
} from '../../../../src/agent/runtime/backoff'
import { crashLoopState, goDuration, shouldRestart } from '../../../../src/agent/runtime/restart'

describe('nextCrashDelay', () => {
  it('restarts at once, then waits 10 s doubling up to 5 min', () => {
    let state: CrashLoopState = { streak: 0 }
    const delays: number[] = []
    for (let i = 0; i < 9; i++) {
      const next = nextCrashDelay(state, 1_000, DEFAULT_CRASH_BACKOFF)
      delays.push(next.delayMs / 1000)
      state = next.state
    }
    expect(delays).toEqual([0, 10, 20, 40, 80, 160, 300, 300, 300])
  })

  const cases: {
    name: string
    streak: number
    ranForMs: number
    delayMs: number
    streakAfter: number
  }[] = [
    {
      name: 'a short run keeps the streak',
      streak: 3,
      ranForMs: 30_000,
      delayMs: 40_000,
      streakAfter: 4,
    },
    {
      name: 'a run just under 10 min keeps it',
      streak: 3,
      ranForMs: 599_999,
      delayMs: 40_000,
      streakAfter: 4,
    },
    {
      name: 'a run of 10 min forgets it',
      streak: 6,
      ranForMs: 600_000,
      delayMs: 0,
      streakAfter: 1,
    },
    { name: 'a long run forgets it', streak: 9, ranForMs: 3_600_000, delayMs: 0, streakAfter: 1 },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const next = nextCrashDelay({ streak: c.streak }, c.ranForMs, DEFAULT_CRASH_BACKOFF)
      expect(next).toEqual({ delayMs: c.delayMs, state: { streak: c.streakAfter } })
    })
  }

  it('takes its base from EDGEPLANE_AGENT_BACKOFF_BASE_MS, keeping the 30x cap', () => {
    expect(crashBackoffFromEnv({})).toEqual(DEFAULT_CRASH_BACKOFF)
    expect(crashBackoffFromEnv({ EDGEPLANE_AGENT_BACKOFF_BASE_MS: 'x' })).toEqual(
      DEFAULT_CRASH_BACKOFF,
    )
    expect(crashBackoffFromEnv({ EDGEPLANE_AGENT_BACKOFF_BASE_MS: '100' })).toEqual({
      baseMs: 100,
      maxMs: 3_000,
      resetAfterMs: 600_000,
    })
  })
})

describe('RetryBackoff', () => {
  it('doubles from 800 ms to 30 s without jitter', () => {
    const b = new RetryBackoff({ ...WATCH_RECONNECT, jitter: 0 })
    expect(Array.from({ length: 8 }, () => b.next())).toEqual([
      800, 1600, 3200, 6400, 12800, 25600, 30000, 30000,
    ])
    b.reset()
    expect(b.next()).toBe(800)
  })

  const jitterCases: { random: number; want: number }[] = [
    { random: 0, want: 640 },
    { random: 0.5, want: 800 },
    { random: 1, want: 960 },
  ]
  for (const c of jitterCases) {
    it(`spreads each delay by ±20 % (random ${c.random})`, () => {
      expect(new RetryBackoff(WATCH_RECONNECT, () => c.random).next()).toBe(c.want)
    })
  }

  it('never exceeds the cap, even with jitter', () => {
    const b = new RetryBackoff(WATCH_RECONNECT, () => 1)
    for (let i = 0; i < 20; i++) expect(b.next()).toBeLessThanOrEqual(30_000)
  })
})

describe('restart rules', () => {
  const cases: { policy: string; exitCode: number; init: boolean; restart: boolean }[] = [
    { policy: 'Always', exitCode: 0, init: false, restart: true },
    { policy: 'Always', exitCode: 1, init: false, restart: true },
    { policy: 'OnFailure', exitCode: 0, init: false, restart: false },
    { policy: 'OnFailure', exitCode: 2, init: false, restart: true },
    { policy: 'Never', exitCode: 0, init: false, restart: false },
    { policy: 'Never', exitCode: 3, init: false, restart: false },
    { policy: 'Always', exitCode: 0, init: true, restart: false },
    { policy: 'Always', exitCode: 1, init: true, restart: true },
    { policy: 'OnFailure', exitCode: 1, init: true, restart: true },
    { policy: 'Never', exitCode: 1, init: true, restart: false },
  ]
  for (const c of cases) {
    it(`${c.init ? 'init' : 'app'} container, ${c.policy}, exit ${c.exitCode}: ${c.restart ? 'restart' : 'stay'}`, () => {
      expect(shouldRestart(c.policy, c.exitCode, c.init)).toBe(c.restart)
    })
  }

  it('prints back-off delays as Go durations in the waiting message', () => {
    expect([10_000, 80_000, 300_000].map(goDuration)).toEqual(['10s', '1m20s', '5m0s'])
    expect(crashLoopState(20_000, 'app', { name: 'p', namespace: 'ns', uid: 'u' })).toEqual({
      waiting: {
        reason: 'CrashLoopBackOff',
        message: 'back-off 20s restarting failed container=app pod=p_ns(u)',
      },
    })
  })
})
