/** A decoded JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Equality of decoded JSON values: same types, same array order, same object keys and values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
  }
  return false
}

/** A JSON object's fields, or none for any other value (a field of the wrong type reads as absent). */
export const fieldsOf = (v: unknown): Record<string, unknown> => (isJsonObject(v) ? v : {})

/** The objects of a JSON list, or none for any other value. */
export const objectsOf = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isJsonObject) : [])
