import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  EventSpamFilter,
  spamBurst,
  spamRefillMs,
} from '../../../../src/controllers/runtime/event-spam-filter'

const t0 = Date.parse('2025-06-01T12:00:00Z')

const event = (
  name: string,
  reason = 'FailedGetResourceMetric',
  component = 'horizontal-pod-autoscaler',
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `${name}.1`, namespace: 'ns' },
  involvedObject: {
    kind: 'HorizontalPodAutoscaler',
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    apiVersion: 'autoscaling/v2',
  },
  source: { component },
  reason,
  message: `about ${name}`,
  type: 'Warning',
})

/** How many of `n` events the filter admits, one every `everyMs` from `from`. */
const admitted = (
  filter: EventSpamFilter,
  e: KubeObject,
  n: number,
  from: number,
  everyMs = 15_000,
) =>
  Array.from({ length: n }, (_, i) => filter.admits(e, from + i * everyMs)).filter(Boolean).length

describe("event spam filter (client-go's EventSourceObjectSpamFilter)", () => {
  it('admits a burst of 25 events per source and object, then one every 5 minutes', () => {
    expect([spamBurst, spamRefillMs]).toEqual([25, 300_000])
    const filter = new EventSpamFilter()
    const hpa = event('web')
    // A burst of 25 at once passes; the 26th is held back.
    expect(admitted(filter, hpa, 25, t0, 0)).toBe(25)
    expect(filter.admits(hpa, t0)).toBe(false)
    // Other reasons and messages about the same object share its bucket.
    expect(filter.admits(event('web', 'FailedComputeMetricsReplicas'), t0 + 1000)).toBe(false)
    // The bucket refills one token every 5 minutes.
    expect(filter.admits(hpa, t0 + spamRefillMs - 1)).toBe(false)
    expect(filter.admits(hpa, t0 + spamRefillMs)).toBe(true)
    expect(filter.admits(hpa, t0 + spamRefillMs + 15_000)).toBe(false)
    // Then, of an hour of warnings every 15 s, one passes per 5 minutes.
    expect(admitted(filter, hpa, 240, t0 + spamRefillMs + 15_000)).toBe(12)
  })

  it('lets a warning every 15 s through for the first 26 syncs, then one per 5 minutes', () => {
    const filter = new EventSpamFilter()
    // Each 15 s adds a twentieth of a token to the 25 it starts with.
    expect(admitted(filter, event('web'), 27, t0)).toBe(26)
    expect(admitted(filter, event('web'), 40, t0 + 27 * 15_000)).toBe(2)
  })

  it('keeps one bucket per source and involved object', () => {
    const filter = new EventSpamFilter(2, 1000)
    expect([
      filter.admits(event('a'), t0),
      filter.admits(event('a'), t0),
      filter.admits(event('a'), t0),
    ]).toEqual([true, true, false])
    expect(filter.admits(event('b'), t0)).toBe(true)
    expect(filter.admits(event('a', 'Other', 'replicaset-controller'), t0)).toBe(true)
  })

  it('does not refill past the burst however long it waits', () => {
    const filter = new EventSpamFilter(3, 1000)
    expect(admitted(filter, event('a'), 3, t0, 0)).toBe(3)
    expect(admitted(filter, event('a'), 10, t0 + 3_600_000, 0)).toBe(3)
  })

  it('remembers at most its capacity of buckets, forgetting the least recently used', () => {
    const filter = new EventSpamFilter(1, spamRefillMs, 2)
    expect(filter.admits(event('a'), t0)).toBe(true)
    expect(filter.admits(event('b'), t0)).toBe(true)
    // `a` used again (held back), so `b` is the least recently used when `c` arrives.
    expect(filter.admits(event('a'), t0)).toBe(false)
    expect(filter.admits(event('c'), t0)).toBe(true)
    expect(filter.admits(event('a'), t0)).toBe(false)
    // `b` was forgotten: its bucket starts full again.
    expect(filter.admits(event('b'), t0)).toBe(true)
  })
})
