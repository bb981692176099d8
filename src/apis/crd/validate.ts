import { invalid, notSupported, required, tooLong, typeInvalid, type FieldCause } from '../../apimachinery/validation'
import { goFloat, goQuote } from '../../apimachinery/go-format'
import { isCheckedFormat, matchesFormat } from './formats'
import type { JSONSchemaProps } from './schema'
import { isJsonObject as isObject, jsonEqual } from '../../apimachinery/json-value'
import { compilePattern } from './pattern'
import { hasRules } from './cel-rules'
import { ruleCauses } from './cel-rule-eval'

/**
 * Validation of a custom resource against its CRD schema, with the causes kube-apiserver returns:
 * the OpenAPI validator's messages (`spec.replicas in body should be less than or equal to 100`)
 * turned into field errors the way the CRD registry does (required, unsupported, too long and too
 * many get their own types; everything else is an invalid value carrying the message). Checks run
 * per value in the validator's order: type, allOf/anyOf/oneOf/not, string, format, number, array,
 * enum, object; properties in the order the schema declares them. Then, on an object whose types
 * are right, the schema's x-kubernetes-validations rules (`cel-rule-eval.ts`).
 */

type Obj = Record<string, unknown>


/** One problem, keyed by the validator's own message: a result holds each message once. */
interface Problem {
  key: string
  cause: FieldCause
}

class Result {
  problems: Problem[] = []
  matches = 0

  add(key: string, cause: FieldCause): void {
    if (!this.problems.some((p) => p.key === key)) this.problems.push({ key, cause })
  }

  merge(other: Result | undefined): void {
    if (!other) return
    for (const p of other.problems) this.add(p.key, p.cause)
    this.matches += other.matches
  }

  get valid(): boolean {
    return this.problems.length === 0
  }
}

const IN = 'body'

/** The field of a validator error named `name`; errors of the whole object have none. */
const fieldOf = (name: string) => (name === '' || name === '.' ? '<nil>' : name.replace(/^\./, ''))

/** Go's int64 for a JSON number: integral and in range. */
const isInt = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63

/** A JSON number as Go prints the decoded value: int64 plainly, float64 with %v. */
const goNumber = (n: number) => (isInt(n) ? String(n) : goFloat(n))

/** %#v of a decoded JSON value, as field errors print maps and slices. */
function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (typeof v === 'string') return goQuote(v)
  if (typeof v === 'number') return goNumber(v)
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return `[]interface {}{${v.map(goElem).join(', ')}}`
  const keys = Object.keys(v as Obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goElem((v as Obj)[k])}`).join(', ')}}`
}

const goElem = (v: unknown) => (v === null || v === undefined ? 'interface {}(nil)' : goSyntax(v))

/** How a bad value reads after `Invalid value: `. */
function display(v: unknown): string | undefined {
  if (typeof v === 'number') return goNumber(v)
  if (v !== null && typeof v === 'object') return goSyntax(v)
  return undefined
}

function invalidCause(name: string, value: unknown, message: string): FieldCause {
  return invalid(fieldOf(name), value ?? '', message, display(value))
}

/** An error that is not a field validation (anyOf and the like): no field, an empty value. */
function plainCause(message: string): FieldCause {
  return invalid('<nil>', '', message)
}

function tooMany(name: string, actual: number, max: number): FieldCause {
  return { field: fieldOf(name), reason: 'FieldValueTooMany', message: `must have at most ${max} items`, value: actual }
}

/** The JSON type of a decoded value as the validator names it. */
function typeOf(v: unknown): string {
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return isInt(v) ? 'integer' : 'number'
  if (Array.isArray(v)) return 'array'
  return 'object'
}

/** The Go format name of a decoded number, as the type check compares formats. */
const numberFormatOf = (v: unknown) => (typeof v === 'number' ? (isInt(v) ? 'int64' : 'float64') : '')

function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string']) return ['integer', 'string']
  return s.type ? [s.type] : []
}

/** Only the formats kube-apiserver checks survive; the others are dropped before validation. */
const formatOf = (s: JSONSchemaProps) => (isCheckedFormat(s.format) ? s.format : '')

function typeMessage(name: string, typeName: string, data: string): string {
  return `${name} in ${IN} must be of type ${typeName}: ${goQuote(data)}`
}

function checkType(s: JSONSchemaProps, name: string, data: unknown): Result {
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
  if (scalar && format !== '' && !(types.includes(found) || numberFormatOf(data) === format || isIntFloat || isFloatInt)) {
    return fail(format, numberFormatOf(data), numberFormatOf(data))
  }
  if (!scalar && format !== '' && !(types.includes('number') || types.includes('integer'))) {
    r.matches++
    return r
  }
  if (!(types.includes(found) || isIntFloat || isFloatInt)) return fail(types.join(','), found, found)
  r.matches++
  return r
}


function checkEnum(s: JSONSchemaProps, name: string, data: unknown, r: Result): void {
  if (!s.enum?.length) return
  if (data !== null && data !== undefined && s.enum.some((e) => jsonEqual(data, e))) return
  const supported = s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))
  const key = `${name} in ${IN} should be one of [${s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(' ')}]`
  r.add(key, notSupported(fieldOf(name), data ?? null, supported, display(data)))
}

const runeCount = (s: string) => [...s].length

function checkString(s: JSONSchemaProps, name: string, data: string, r: Result): void {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    r.add(`${name} in ${IN} should be at most ${s.maxLength} chars long`, tooLong(fieldOf(name), s.maxLength))
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
    if (re instanceof Error) message = `${name} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re.message}'`
    else if (!re.test(data)) message = `${name} in ${IN} should match '${s.pattern}'`
    if (message) r.add(message, invalidCause(name, data, message))
  }
}

function checkFormat(s: JSONSchemaProps, name: string, data: string, r: Result): void {
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

function checkNumber(s: JSONSchemaProps, name: string, data: number, r: Result): void {
  const types = typesOf(s)
  const typeName = types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : ''
  const checked = rangeError(data, typeName, 'Checked', name)
  if (checked) r.add(checked, plainCause(checked))
  const int = isInt(data)
  // Bounds compare as integers when the value is one (a fractional bound is truncated).
  const bound = (b: number, prefix: string) => {
    const err = rangeError(b, typeName, prefix, name)
    if (err) r.add(err, plainCause(err))
    return int && !err ? { value: Math.trunc(b), text: String(Math.trunc(b)) } : { value: b, text: goFloat(b) }
  }
  if (s.multipleOf !== undefined) {
    const f = bound(s.multipleOf, 'MultipleOf')
    if (f.value <= 0) {
      const message = `factor MultipleOf declared for ${name} must be positive: ${f.text}`
      r.add(message, invalidCause(name, f.value, message))
    } else if (int && Number.isInteger(f.value) ? data % f.value !== 0 : !isAlmostInteger(f.value < 1 ? (1 / f.value) * data : data / f.value)) {
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

function checkArray(s: JSONSchemaProps, name: string, data: unknown[], r: Result): void {
  if (s.items) data.forEach((v, i) => r.merge(validateValue(s.items!, `${name}[${i}]`, v)))
  if (s.minItems !== undefined && data.length < s.minItems) {
    const message = `${name} in ${IN} should have at least ${s.minItems} items`
    r.add(message, invalidCause(name, data.length, message))
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    r.add(`${name} in ${IN} should have at most ${s.maxItems} items`, tooMany(name, data.length, s.maxItems))
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) {
    const message = `${name} in ${IN} shouldn't contain duplicates`
    r.add(message, invalidCause(name, '', message))
  }
  r.matches++
}

function checkObject(s: JSONSchemaProps, name: string, data: Obj, r: Result): void {
  const size = Object.keys(data).length
  if (s.minProperties !== undefined && size < s.minProperties) {
    const message = `${name} in ${IN} should have at least ${s.minProperties} properties`
    r.add(message, invalidCause(name, size, message))
  }
  if (s.maxProperties !== undefined && size > s.maxProperties) {
    r.add(`${name} in ${IN} should have at most ${s.maxProperties} properties`, tooMany(name, size, s.maxProperties))
  }
  const props = s.properties ?? {}
  const declared = (k: string) => Object.hasOwn(props, k)
  if (s.additionalProperties === false) {
    for (const k of Object.keys(data)) {
      if (declared(k)) continue
      const message = `${name}.${k} in ${IN} is a forbidden property`
      r.add(message, invalidCause(name, k, message))
    }
  } else if (isObject(s.additionalProperties)) {
    const values = s.additionalProperties as JSONSchemaProps
    for (const [k, v] of Object.entries(data)) if (!declared(k)) r.merge(validateValue(values, `${name}.${k}`, v))
  }
  for (const [k, prop] of Object.entries(props)) {
    if (Object.hasOwn(data, k)) r.merge(validateValue(prop, name === '' ? k : `${name}.${k}`, data[k]))
  }
  for (const k of s.required ?? []) {
    if (!Object.hasOwn(data, k)) r.add(`${name}.${k} in ${IN} is required`, required(fieldOf(`${name}.${k}`)))
  }
}

function checkComposition(s: JSONSchemaProps, name: string, data: unknown): Result {
  const main = new Result()
  const quoted = goQuote(name)
  const fail = (message: string) => main.add(message, plainCause(message))
  if (s.anyOf?.length) {
    let best: Result | undefined
    let firstSuccess: Result | undefined
    for (const sub of s.anyOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) {
        best = undefined
        firstSuccess = res
        break
      }
      if (!best || res.matches > best.matches) best = res
    }
    if (!firstSuccess) fail(`${quoted} must validate at least one schema (anyOf)`)
    main.merge(best ?? firstSuccess)
  }
  if (s.oneOf?.length) {
    let best: Result | undefined
    let firstSuccess: Result | undefined
    let validated = 0
    for (const sub of s.oneOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) {
        validated++
        best = undefined
        firstSuccess ??= res
        continue
      }
      if (validated === 0 && (!best || res.matches > best.matches)) best = res
    }
    if (validated !== 1) {
      fail(`${quoted} must validate one and only one schema (oneOf). ${validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`}`)
      main.merge(best)
    } else main.merge(firstSuccess)
  }
  if (s.allOf?.length) {
    let validated = 0
    for (const sub of s.allOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) validated++
      main.merge(res)
    }
    if (validated !== s.allOf.length) fail(`${quoted} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`)
  }
  if (s.not && validateValue(s.not, name, data).valid) fail(`${quoted} must not validate the schema (not)`)
  main.matches++
  return main
}

function validateValue(s: JSONSchemaProps, name: string, data: unknown): Result {
  const r = new Result()
  const checksType = typesOf(s).length > 0 || formatOf(s) !== ''
  if (data === null || data === undefined) {
    if (checksType) r.merge(checkType(s, name, data))
    checkEnum(s, name, data, r)
    return r
  }
  const step = (run: () => void) => {
    run()
    r.matches++
  }
  if (checksType) step(() => r.merge(checkType(s, name, data)))
  step(() => r.merge(checkComposition(s, name, data)))
  if (typeof data === 'string') {
    step(() => checkString(s, name, data, r))
    if (formatOf(s) !== '') step(() => checkFormat(s, name, data, r))
  }
  if (typeof data === 'number') step(() => checkNumber(s, name, data, r))
  if (Array.isArray(data)) step(() => checkArray(s, name, data, r))
  step(() => checkEnum(s, name, data, r))
  if (isObject(data)) step(() => checkObject(s, name, data, r))
  r.matches++
  return r
}

/**
 * The causes of `obj` failing `schema`, in the order kube-apiserver reports them. `metadata` at the
 * root is left to ObjectMeta validation; `apiVersion` and `kind` are checked only when the schema
 * declares them.
 */
export function validateAgainstSchema(schema: JSONSchemaProps, obj: Record<string, unknown>): FieldCause[] {
  const { metadata: _metadata, ...rootProps } = schema.properties ?? {}
  const root: JSONSchemaProps = { ...schema, properties: rootProps }
  const causes = validateValue(root, '', obj).problems.map((p) => p.cause)
  if (!hasRules(schema)) return causes
  // As the CRD strategy, the x-kubernetes-validations rules run only on an object of the right types.
  if (causes.some((c) => c.reason === 'FieldValueNotSupported' || c.reason === 'FieldValueTypeInvalid')) {
    return [...causes, invalid('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation', '"null"')]
  }
  return [...causes, ...ruleCauses(schema, obj)]
}
