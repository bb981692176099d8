import { isJsonObject, jsonEqual, type Json } from '../../apimachinery/json-value'

/**
 * The value as Go would hold it once decoded into the flowcontrol types: nulls, empty strings,
 * false and empty lists are the zero values its fields omit, so they read as absent.
 */
function goZeroed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(goZeroed)
  if (!isJsonObject(v)) return v
  const out: Json = {}
  for (const [k, value] of Object.entries(v)) {
    if (value === null || value === undefined || value === '' || value === false) continue
    if (Array.isArray(value) && value.length === 0) continue
    out[k] = goZeroed(value)
  }
  return out
}

/** apiequality.Semantic.DeepEqual of two specs as decoded JSON. */
export const specEqual = (a: unknown, b: unknown): boolean =>
  jsonEqual(goZeroed(a ?? {}), goZeroed(b ?? {}))
