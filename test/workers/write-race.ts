import { expect } from 'vitest'
import type { StoreResult } from '../../src/apimachinery/status'
import type { WriteGuard } from '../../src/admission/guarded-write'

/**
 * `check`, with `meanwhile` run once, right after its first verdict (which must let the write
 * through): a concurrent write that lands between a guarded write's check and its write.
 */
export function racedGuard(check: WriteGuard, meanwhile: () => Promise<unknown>): WriteGuard {
  let raced = false
  return async (object, old) => {
    const verdict = await check(object, old)
    if (!raced) {
      raced = true
      expect(verdict, 'the first check lets the write through').toBeUndefined()
      await meanwhile()
    }
    return verdict
  }
}

/** A store write made directly (no admission, no guard), which must succeed. */
export async function landed(write: Promise<StoreResult<unknown>>): Promise<void> {
  const res = await write
  expect(res.ok, res.ok ? '' : res.status.message).toBe(true)
}
