import { describe, expect, it } from 'vitest'
import { percentile, percentiles, spread } from '../../../src/bench/stats'
import { configMapJson, PAYLOAD_BYTES } from '../../../src/bench/payload'

describe('bench statistics', () => {
  it('takes nearest-rank percentiles', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(percentile(hundred, 50)).toBe(50)
    expect(percentile(hundred, 99)).toBe(99)
    expect(percentile(hundred, 100)).toBe(100)
    expect(percentile([7], 99)).toBe(7)
    expect(percentile([], 50)).toBeNaN()
  })

  it('summarises unsorted samples', () => {
    const p = percentiles([5, 1, 4, 2, 3])
    expect(p).toMatchObject({ count: 5, p50: 3, p99: 5, max: 5, mean: 3 })
  })

  it('gives the median and range over repetitions, ignoring non-numbers', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 })
    expect(spread([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 })
    expect(spread([Number.NaN, 5])).toEqual({ median: 5, min: 5, max: 5 })
    expect(spread([])).toBeUndefined()
  })
})

describe('bench payload', () => {
  it('is a 1 KiB ConfigMap with a distinct body per name', () => {
    const a = configMapJson('cm-000001', 'bench')
    const b = configMapJson('cm-000002', 'bench')
    expect(Buffer.byteLength(a)).toBe(PAYLOAD_BYTES)
    expect(Buffer.byteLength(b)).toBe(PAYLOAD_BYTES)
    expect(JSON.parse(a)).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm-000001', namespace: 'bench' },
    })
    expect(a).not.toBe(b.replace('cm-000002', 'cm-000001'))
  })
})
