import { describe, expect, it } from 'vitest'
import {
  QuantityError,
  parseBytes,
  parseCount,
  parseCpuMillis,
} from '../../../src/apimachinery/quantity'

describe('parseCpuMillis', () => {
  it.each<[string | number, number]>([
    ['500m', 500],
    ['2', 2000],
    ['0.5', 500],
    ['1.25', 1250],
    ['100m', 100],
    ['0', 0],
    ['0.1m', 1],
    ['1500000n', 2],
    ['250000u', 250],
    ['1k', 1_000_000],
    ['1e3', 1_000_000],
    ['1e-3', 1],
    ['+3', 3000],
    ['.5', 500],
    ['2.', 2000],
    [3, 3000],
    [0.25, 250],
  ])('%s → %d millicores', (q, want) => {
    expect(parseCpuMillis(q)).toBe(want)
  })
})

describe('parseBytes', () => {
  it.each<[string | number, number]>([
    ['128Mi', 128 * 2 ** 20],
    ['1Ki', 1024],
    ['1Gi', 2 ** 30],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['2Ti', 2 * 2 ** 40],
    ['1Pi', 2 ** 50],
    ['1G', 1e9],
    ['1M', 1e6],
    ['1k', 1e3],
    ['1T', 1e12],
    ['1P', 1e15],
    ['1E', 1e18],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1.5e3', 1500],
    ['12e-1', 2],
    ['100m', 1],
    ['1000m', 1],
    ['1n', 1],
    ['1u', 1],
    ['0Mi', 0],
    ['-1Ki', -1024],
    [1048576, 1048576],
  ])('%s → %d bytes', (q, want) => {
    expect(parseBytes(q)).toBe(want)
  })

  it('is exact for exabytes beyond double precision arithmetic on the mantissa', () => {
    expect(parseBytes('1Ei')).toBe(2 ** 60)
    expect(parseBytes('8Ei')).toBe(Number(2n ** 63n - 1n))
  })

  it('clamps absurd exponents instead of computing them', () => {
    expect(parseBytes('1e999999')).toBe(Number(2n ** 63n - 1n))
    expect(parseBytes('1e-999999')).toBe(1)
  })
})

describe('parseCount', () => {
  it.each<[string, number]>([
    ['110', 110],
    ['1k', 1000],
    ['2', 2],
  ])('%s → %d', (q, want) => {
    expect(parseCount(q)).toBe(want)
  })
})

describe('invalid quantities', () => {
  it.each(['', '.', '+', 'abc', '1K', '1mi', '1 Gi', '1e', '1Gib', '--1', '1.2.3', 'Mi'])(
    '%j throws',
    (q) => {
      expect(() => parseBytes(q)).toThrow(QuantityError)
      expect(() => parseCpuMillis(q)).toThrow(QuantityError)
    },
  )

  it('rejects non-finite numbers', () => {
    expect(() => parseBytes(Number.NaN)).toThrow(QuantityError)
    expect(() => parseBytes(Number.POSITIVE_INFINITY)).toThrow(QuantityError)
  })
})
