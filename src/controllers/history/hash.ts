import { safeEncodeString } from '../shared/pod-template'
import { stableStringify } from '../../apimachinery/json-value'

/** hash/fnv's New32: FNV-1 (multiply, then xor), which history.HashControllerRevision uses, not FNV-1a. */
export function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0
  return h
}

/**
 * history.HashControllerRevision: FNV-1 of the revision's data, then of the collision count printed
 * in decimal when one is given, printed in decimal and safe-encoded. The data is hashed in its
 * canonical JSON form, so equal data always hashes alike whatever its key order.
 */
export function hashControllerRevision(data: unknown, collisionCount?: number): string {
  const encoder = new TextEncoder()
  let h = fnv32(encoder.encode(stableStringify(data)))
  if (collisionCount !== undefined) h = fnv32(encoder.encode(String(collisionCount)), h)
  return safeEncodeString(String(h))
}
