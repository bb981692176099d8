/**
 * What kube-apiserver's JSON decoding into the Go types (sigs.k8s.io/json) reports for a body, in
 * one walk of the schema and the object: every unknown field (for fieldValidation) and the first
 * value of the wrong JSON type, worded as Go's decoder words it, e.g. `json: cannot unmarshal bool
 * into Go struct field EnvVar.spec.template.spec.containers.env.name of type string`.
 *
 * Unknown-field paths join struct fields and map keys with "." and add "[i]" for list elements, as
 * strict decoding does. Type errors name the struct that holds the field and the chain of JSON
 * field names from the top (no map keys, no indices), as Go's UnmarshalTypeError does.
 */
import type { FieldType, SchemaSet } from '../../apimachinery/schema-types'
import { int64Fields } from './int64-fields'
import { parseCount, QuantityError } from '../../apimachinery/quantity'
import { base64Error } from '../../apimachinery/base64'

/** kube-apiserver stops accumulating strict decoding errors at this many. */
const MAX_UNKNOWN = 100

export interface DecodeCheck {
  /** unknown fields, in document order, e.g. `spec.template.spec.containers[0].imagee` */
  unknown: string[]
  /** the first value of the wrong type, as the decoder's error message */
  typeError?: string
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The Go type name of a struct of the set: `io.k8s.api.core.v1.EnvVar` → `v1.EnvVar`. */
function goStructType(ref: string): string {
  const parts = ref.split('.')
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : ref
}

/** The Go type a field of this schema type decodes into, as the decoder prints it. */
function goType(type: FieldType, field: string): string {
  switch (type.kind) {
    case 'ref':
      return goStructType(type.ref)
    case 'map':
      return `map[string]${goType(type.values, field)}`
    case 'list':
      return `[]${goType(type.items, field)}`
    case 'scalar':
      switch (type.scalar) {
        case 'integer':
          return int64Fields.has(field) ? 'int64' : 'int32'
        case 'number':
          return 'float64'
        case 'boolean':
          return 'bool'
        case 'bytes':
          return '[]uint8'
        case 'quantity':
          return 'resource.Quantity'
        case 'intOrString':
          return 'intstr.IntOrString'
        case 'time':
          return 'v1.Time'
        default:
          return 'string'
      }
  }
}

/** How Go's decoder names a JSON value in its errors. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'boolean') return 'bool'
  return typeof v === 'object' ? 'object' : typeof v
}

const INT32 = 2 ** 31
const INT64 = 2 ** 63

/** Where a type error was found: the Go struct holding the field, the field chain, the field's name. */
interface At {
  struct: string
  path: string
  field: string
}

/** Go's UnmarshalTypeError message for a JSON `value` (its kind, or `number 1.5`) that does not fit `type`. */
function unmarshalError(value: string, type: FieldType, at: At): string {
  return `json: cannot unmarshal ${value} into Go struct field ${at.struct}.${at.path} of type ${goType(type, at.field)}`
}

/** Quantities in their common spellings (`2`, `0.5`, `500m`, `128Mi`), valid without a full parse. */
const plainQuantity = /^[0-9]+(?:\.[0-9]+)?(?:[munkMGTPE]|[KMGTPE]i)?$/

/** resource.Quantity parses the JSON text (without quotes) whatever its type. */
function quantityError(v: unknown): string | undefined {
  if (typeof v === 'number' || (typeof v === 'string' && plainQuantity.test(v))) return undefined
  try {
    parseCount(typeof v === 'string' ? v.trim() : JSON.stringify(v))
    return undefined
  } catch (e) {
    if (e instanceof QuantityError) return e.message
    throw e
  }
}

/**
 * Checks a scalar value: undefined when it fits, else the decoder's message (built by `at` only
 * then, as the field chain is joined only for an error).
 */
/** What Go's time.Parse takes for RFC 3339 (fractional seconds of any length included). */
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

function scalarError(
  v: unknown,
  type: FieldType & { kind: 'scalar' },
  at: () => At,
): string | undefined {
  switch (type.scalar) {
    case 'any':
      return undefined
    case 'string':
      return typeof v === 'string' ? undefined : unmarshalError(jsonKind(v), type, at())
    // []byte: a base64 string.
    case 'bytes':
      return typeof v === 'string' ? base64Error(v) : unmarshalError(jsonKind(v), type, at())
    case 'boolean':
      return typeof v === 'boolean' ? undefined : unmarshalError(jsonKind(v), type, at())
    case 'number':
      return typeof v === 'number' ? undefined : unmarshalError(jsonKind(v), type, at())
    case 'integer': {
      if (typeof v !== 'number') return unmarshalError(jsonKind(v), type, at())
      if (Number.isInteger(v) && v >= -INT32 && v < INT32) return undefined
      const where = at()
      const limit = int64Fields.has(where.field) ? INT64 : INT32
      return Number.isInteger(v) && v >= -limit && v < limit
        ? undefined
        : unmarshalError(`number ${JSON.stringify(v)}`, type, where)
    }
    // metav1.Time decodes its JSON as a string first, then parses it as RFC 3339.
    case 'time':
      if (typeof v !== 'string')
        return `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`
      return rfc3339.test(v) && !Number.isNaN(Date.parse(v))
        ? undefined
        : `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)}`
    // intstr.IntOrString takes a string as is and anything else as an int32.
    case 'intOrString':
      if (typeof v === 'string') return undefined
      if (typeof v !== 'number')
        return `json: cannot unmarshal ${jsonKind(v)} into Go value of type int32`
      return Number.isInteger(v) && v >= -INT32 && v < INT32
        ? undefined
        : `json: cannot unmarshal number ${JSON.stringify(v)} into Go value of type int32`
    case 'quantity':
      return quantityError(v)
  }
}

/**
 * Decodes `value` as struct `structName` of `set` the way the Go types would. `apiVersion` and
 * `kind` are always known at the top. A struct missing from `set` accepts anything, as do `any`
 * fields; open structs accept unknown keys. JSON null fits every field, as in Go.
 */
export function checkDecode(value: unknown, structName: string, set: SchemaSet): DecodeCheck {
  const unknown: string[] = []
  const seen = new Set<string>()
  let typeError: string | undefined
  // The JSON field names from the top and the Go struct holding the last one, as the decoder tracks them.
  const fields: string[] = []
  let struct = ''
  const at = (): At => ({ struct, path: fields.join('.'), field: fields[fields.length - 1] ?? '' })

  const walkStruct = (
    v: Record<string, unknown>,
    name: string,
    path: string,
    top: boolean,
  ): void => {
    const def = Object.hasOwn(set, name) ? set[name] : undefined
    if (def === undefined) return
    const outer = struct
    const here = name.slice(name.lastIndexOf('.') + 1)
    for (const key in v) {
      // A property set to undefined (an object built in-process, not parsed) is absent in JSON.
      if (v[key] === undefined || (top && (key === 'apiVersion' || key === 'kind'))) continue
      const field = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined
      const childPath = path === '' ? key : `${path}.${key}`
      if (field === undefined) {
        if (!def.open && unknown.length < MAX_UNKNOWN && !seen.has(childPath)) {
          seen.add(childPath)
          unknown.push(childPath)
        }
        continue
      }
      fields.push(key)
      struct = here
      walk(v[key], field.type, childPath)
      fields.pop()
    }
    struct = outer
  }

  const walk = (v: unknown, type: FieldType, path: string): void => {
    if (v === null || v === undefined) return
    switch (type.kind) {
      case 'scalar': {
        if (typeError === undefined) typeError = scalarError(v, type, at)
        return
      }
      case 'ref':
        if (isObject(v)) walkStruct(v, type.ref, path, false)
        else typeError ??= unmarshalError(jsonKind(v), type, at())
        return
      case 'map':
        if (!isObject(v)) typeError ??= unmarshalError(jsonKind(v), type, at())
        else for (const key in v) walk(v[key], type.values, `${path}.${key}`)
        return
      case 'list':
        if (!Array.isArray(v)) typeError ??= unmarshalError(jsonKind(v), type, at())
        else for (let i = 0; i < v.length; i++) walk(v[i], type.items, `${path}[${i}]`)
        return
    }
  }

  if (isObject(value)) walkStruct(value, structName, '', true)
  return typeError === undefined ? { unknown } : { unknown, typeError }
}
