import { describe, expect, it } from 'vitest'
import { eventName } from '../../../../src/controllers/runtime/event-object'

describe('event names', () => {
  it('gives every event of one burst about one object its own name, in the recorder format', () => {
    const now = Date.parse('2026-01-02T03:04:05.678Z')
    const names = Array.from({ length: 5000 }, () => eventName('web-7d9f', now))
    expect(new Set(names).size).toBe(names.length)
    for (const n of names.slice(0, 10)) expect(n).toMatch(/^web-7d9f\.[0-9a-f]+$/)
  })

  it('orders names of later milliseconds after earlier ones, as nanosecond names sort', () => {
    const a = BigInt('0x' + eventName('x', 1_000_000).split('.')[1])
    const b = BigInt('0x' + eventName('x', 1_000_001).split('.')[1])
    expect(b > a).toBe(true)
  })
})
