import { isJsonObject as isObject } from '../apimachinery/json-value'
import { goFloat } from '../apimachinery/go-format'
import { humanDuration } from './duration'

/** JSON as Go's encoding/json writes it: map keys sorted, <, > and & escaped. */
function goJson(v: unknown): string {
  const sortKeys = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sortKeys)
    if (isObject(x))
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sortKeys(x[k])]),
      )
    return x
  }
  return JSON.stringify(sortKeys(v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** A value printed as text, as a `string` column shows it. */
function printText(v: unknown): string {
  if (v === null || v === undefined) return '<no value>'
  if (Array.isArray(v) || isObject(v)) return goJson(v)
  if (typeof v === 'number')
    return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? String(v) : goFloat(v)
  return String(v)
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z')

/** A `date` cell: the age of an RFC 3339 timestamp, `<unknown>` when unset, `<invalid>` when malformed. */
function dateCell(v: string, now: number): string {
  if (v === '' || v === 'null') return '<unknown>'
  if (!rfc3339.test(v)) return '<invalid>'
  const ms = Date.parse(v)
  if (Number.isNaN(ms)) return '<invalid>'
  if (ms === GO_ZERO_TIME) return '<unknown>'
  return humanDuration(now - ms)
}

/**
 * The cell of a CRD printer column of `type` (integer, number, boolean, string or date) for the
 * values its JSONPath selected: only the first value counts; no value, or one of another type,
 * makes a null cell (kubectl shows `<none>`). A string column prints any value as text (objects
 * and lists as JSON); a date column shows the age of a timestamp as the Age column does.
 */
export function printerCell(
  type: string,
  values: readonly unknown[],
  now: number = Date.now(),
): unknown {
  if (values.length === 0) return null
  const value = values[0]
  if (type === 'string') return printText(value)
  if (value === null || value === undefined) return null
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null
    case 'number':
      return typeof value === 'number' ? value : null
    case 'boolean':
      return typeof value === 'boolean' ? value : null
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null
    default:
      return null
  }
}
