/** Reading loosely typed object JSON, and comparing it the way the controllers need. */

export type Json = Record<string, unknown>

export const asRecord = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})

export const isRecord = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)

/** JSON with object keys sorted at every level, so equal values always print alike. */
export function stableStringify(v: unknown): string {
  return JSON.stringify(sortKeys(v))
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (!isRecord(v)) return v
  const out: Json = {}
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortKeys(v[k])
  return out
}

/** Deep equality of JSON values, ignoring key order (reflect.DeepEqual on decoded objects). */
export function sameJson(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b)
}

/** An integer field, or the fallback when it is absent or not a number. */
export function intOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback
}
