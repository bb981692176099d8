/**
 * Decoded JSON: the one vocabulary every layer reads loosely typed objects with (the API, the
 * store, controllers and the agent alike).
 */

/** Any JSON value. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue }

/** A decoded JSON object, its fields not yet known. */
export type Json = Record<string, unknown>

/** A decoded JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The value as an object; anything else (absent, null, an array, a scalar) reads as an empty one. */
export const asRecord = (v: unknown): Json => (isJsonObject(v) ? v : {})

/**
 * Equality of JSON values (reflect.DeepEqual on decoded objects): same types, same array order,
 * same object fields and values in any key order. A field holding `undefined` counts as absent,
 * as it would once encoded.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false
    const keys = definedKeys(a)
    return (
      keys.length === definedKeys(b).length &&
      keys.every((k) => b[k] !== undefined && jsonEqual(a[k], b[k]))
    )
  }
  return false
}

const definedKeys = (o: Json) => Object.keys(o).filter((k) => o[k] !== undefined)

/** JSON with object keys sorted at every level, so equal values always print alike. */
export function stableStringify(v: unknown): string {
  return JSON.stringify(sortKeys(v))
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (!isJsonObject(v)) return v
  const out: Json = {}
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortKeys(v[k])
  return out
}

/** An integer field, or the fallback when it is absent or not a number. */
export function intOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback
}

/** The objects of a JSON list, or none for any other value. */
export const objectsOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isJsonObject) : [])
