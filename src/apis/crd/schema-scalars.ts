import { notSupported, tooLong, typeInvalid } from '../../apimachinery/field-errors'
import { goFloat, goQuote } from '../../apimachinery/go-format'
import { jsonEqual } from '../../apimachinery/json-value'
import { isCheckedFormat, matchesFormat } from './formats'
import { compilePattern } from './pattern'
import type { JSONSchemaProps } from './schema'
import { display, fieldOf, IN, invalidCause, isInt, plainCause, Result } from './schema-result'

/**
 * The CRD schema checks of a single value, in the OpenAPI validator's words: its type (and the
 * formats kube-apiserver checks), its enum, and the bounds of a string or a number.
 */

/** The JSON type of a decoded value as the validator names it. */
function typeOf(v: unknown): string {
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return isInt(v) ? 'integer' : 'number'
  if (Array.isArray(v)) return 'array'
  return 'object'
}

/** The Go format name of a decoded number, as the type check compares formats. */
const numberFormatOf = (v: unknown) =>
  typeof v === 'number' ? (isInt(v) ? 'int64' : 'float64') : ''

export function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string']
  return s.type ? [s.type] : []
}

/** Only the formats kube-apiserver checks survive; the others are dropped before validation. */
export const formatOf = (s: JSONSchemaProps) => (isCheckedFormat(s.format) ? s.format : '')

function typeMessage(name: string, typeName: string, data: string): string {
  return `${name} in ${IN} must be of type ${typeName}: ${goQuote(data)}`
}

export function checkType(s: JSONSchemaProps, name: string, data: unknown): Result {
  const r = new Result()
  const types = typesOf(s)
  const format = formatOf(s)
  const fail = (typeName: string, found: string, value: unknown) => {
    const message = typeMessage(name, typeName, found)
    r.add(message, typeInvalid(fieldOf(name), value ?? '', message, display(value)))
    return r
  }
  if (data === null || data === undefined) {
    if (types.length && !s.nullable) return fail(types.join(','), 'null', 'null')
    r.matches++
    return r
  }
  const found = typeOf(data)
  const isIntFloat = found === 'integer' && types.includes('number')
  const isFloatInt = found === 'number' && Number.isInteger(data) && types.includes('integer')
  const scalar = typeof data !== 'string' && !Array.isArray(data)
  if (
    scalar &&
    format !== '' &&
    !(types.includes(found) || numberFormatOf(data) === format || isIntFloat || isFloatInt)
  ) {
    return fail(format, numberFormatOf(data), numberFormatOf(data))
  }
  if (!scalar && format !== '' && !(types.includes('number') || types.includes('integer'))) {
    r.matches++
    return r
  }
  if (!(types.includes(found) || isIntFloat || isFloatInt))
    return fail(types.join(','), found, found)
  r.matches++
  return r
}

export function checkEnum(s: JSONSchemaProps, name: string, data: unknown, r: Result): void {
  if (!s.enum?.length) return
  if (data !== null && data !== undefined && s.enum.some((e) => jsonEqual(data, e))) return
  const supported = s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))
  const key = `${name} in ${IN} should be one of [${s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(' ')}]`
  r.add(key, notSupported(fieldOf(name), data ?? null, supported, display(data)))
}

const runeCount = (s: string) => [...s].length

export function checkString(s: JSONSchemaProps, name: string, data: string, r: Result): void {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    r.add(
      `${name} in ${IN} should be at most ${s.maxLength} chars long`,
      tooLong(fieldOf(name), s.maxLength),
    )
    return
  }
  if (s.minLength !== undefined && runeCount(data) < s.minLength) {
    const message = `${name} in ${IN} should be at least ${s.minLength} chars long`
    r.add(message, invalidCause(name, data, message))
    return
  }
  if (s.pattern) {
    const re = compilePattern(s.pattern)
    let message = ''
    if (re instanceof Error)
      message = `${name} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.message}'`
    else if (!re.test(data)) message = `${name} in ${IN} should match '${s.pattern}'`
    if (message) r.add(message, invalidCause(name, data, message))
  }
}

export function checkFormat(s: JSONSchemaProps, name: string, data: string, r: Result): void {
  const format = formatOf(s)
  if (format === '' || matchesFormat(format, data)) return
  const message = typeMessage(name, format, data)
  r.add(message, invalidCause(name, data, message))
}

/** The range check of a number against the schema's single numeric type (int64 for integers). */
function rangeError(v: number, typeName: string, prefix: string, name: string): string | undefined {
  if (typeName !== 'integer') return undefined
  if (isInt(v)) return undefined
  return `${prefix} value must be of type integer (default format) in ${name}`
}

/** Whether a quotient is integral, up to the relative error floating point division leaves. */
function isAlmostInteger(m: number): boolean {
  if (!Number.isFinite(m)) return false
  const g = Math.trunc(m)
  if (m === g) return true
  return Math.abs(m - g) / (Math.abs(m) + Math.abs(g)) < 1e-9
}

export function checkNumber(s: JSONSchemaProps, name: string, data: number, r: Result): void {
  const types = typesOf(s)
  const typeName =
    types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : ''
  const checked = rangeError(data, typeName, 'Checked', name)
  if (checked) r.add(checked, plainCause(checked))
  const int = isInt(data)
  // Bounds compare as integers when the value is one (a fractional bound is truncated).
  const bound = (b: number, prefix: string) => {
    const err = rangeError(b, typeName, prefix, name)
    if (err) r.add(err, plainCause(err))
    return int && !err
      ? { value: Math.trunc(b), text: String(Math.trunc(b)) }
      : { value: b, text: goFloat(b) }
  }
  if (s.multipleOf !== undefined) {
    const f = bound(s.multipleOf, 'MultipleOf')
    if (f.value <= 0) {
      const message = `factor MultipleOf declared for ${name} must be positive: ${f.text}`
      r.add(message, invalidCause(name, f.value, message))
    } else if (
      int && Number.isInteger(f.value)
        ? data % f.value !== 0
        : !isAlmostInteger(f.value < 1 ? (1 / f.value) * data : data / f.value)
    ) {
      const message = `${name} in ${IN} should be a multiple of ${f.text}`
      r.add(message, invalidCause(name, data, message))
    }
  }
  if (s.minimum !== undefined) {
    const min = bound(s.minimum, 'Minimum boundary')
    const exclusive = !!s.exclusiveMinimum
    if (exclusive ? data <= min.value : data < min.value) {
      const message = `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${min.text}`
      r.add(message, invalidCause(name, data, message))
    }
  }
  if (s.maximum !== undefined) {
    const max = bound(s.maximum, 'Maximum boundary')
    const exclusive = !!s.exclusiveMaximum
    if (exclusive ? data >= max.value : data > max.value) {
      const message = `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${max.text}`
      r.add(message, invalidCause(name, data, message))
    }
  }
  r.matches++
}
