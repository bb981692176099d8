import { describe, expect, it } from 'vitest'
import { PatchError, applyJsonPatch } from '../../../../src/apimachinery/patch/index'

const doc = () => ({ metadata: { name: 'a', annotations: { x: 'y'.repeat(1000) } } })

describe('JSON patch limits', () => {
  it('refuses more than 10,000 operations with 413 RequestEntityTooLarge, and takes exactly 10,000', () => {
    const ops = (n: number) =>
      Array.from({ length: n }, () => ({ op: 'test', path: '/metadata/name', value: 'a' }))
    expect(() => applyJsonPatch(doc(), ops(10_000))).not.toThrow()
    let err: unknown
    try {
      applyJsonPatch(doc(), ops(10_001))
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(PatchError)
    expect((err as PatchError).toStatus()).toMatchObject({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message:
        'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    })
  })

  it('stops copies that double a value once they have added more than the request size limit', () => {
    // Forty copies of one 1 KB value stay far below the limit...
    const linear = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations/x',
      path: `/metadata/annotations/x${i}`,
    }))
    expect(Object.keys((applyJsonPatch(doc(), linear) as any).metadata.annotations)).toHaveLength(
      41,
    )
    // ...copying the map into itself doubles it each time, and is stopped at 3 MiB.
    const attack = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations',
      path: `/metadata/annotations/k${i}`,
    }))
    let err: unknown
    try {
      applyJsonPatch(doc(), attack)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(PatchError)
    expect((err as PatchError).message).toMatch(
      /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    )
    expect((err as PatchError).toStatus()).toMatchObject({ code: 422, reason: 'Invalid' })
  })
})
