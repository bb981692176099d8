/**
 * OpenAPI v3 component schemas generated from the schema DSL (src/apis/schema), shaped like the
 * upstream kube-apiserver's: refs to named structs are `allOf: [{$ref}]` when the field carries
 * a description or extensions (OpenAPI 3.0 ignores siblings of a bare `$ref`), and the list,
 * patch and int-or-string extensions are the ones kubectl and other clients read.
 */
import type {
  FieldDef,
  FieldType,
  Scalar,
  SchemaSet,
  StructDef,
} from '../../../apimachinery/schema-types'
import { int64Fields } from '../../../apis/schema/int64-fields'

export type Schema = Record<string, unknown>

export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString'
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity'

/** Named scalar types that upstream publishes as components rather than inline. */
export const scalarComponents: Record<string, Schema> = {
  [INT_OR_STRING]: {
    description:
      'IntOrString is a type that can hold an int32 or a string. When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type. This allows you to have, for example, a JSON field that can accept a name or number.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  },
  [QUANTITY]: {
    description:
      'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors. Serialized as a string such as "500m", "1Gi" or "2", or as a number.',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
}

export const refTo = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** The component name a `$ref` points at. */
export const refName = (ref: string): string => ref.slice('#/components/schemas/'.length)

function scalarSchema(scalar: Scalar, fieldName: string, values?: readonly string[]): Schema {
  switch (scalar) {
    case 'string':
      return values ? { type: 'string', enum: [...values] } : { type: 'string' }
    case 'integer':
      return { type: 'integer', format: int64Fields.has(fieldName) ? 'int64' : 'int32' }
    case 'number':
      return { type: 'number', format: 'double' }
    case 'boolean':
      return { type: 'boolean' }
    case 'time':
      return { type: 'string', format: 'date-time' }
    case 'bytes':
      return { type: 'string', format: 'byte' }
    case 'quantity':
      return refTo(QUANTITY)
    case 'intOrString':
      return refTo(INT_OR_STRING)
    case 'any':
      return { 'x-kubernetes-preserve-unknown-fields': true }
  }
}

/** The schema of a value of `type`, without description or field-level extensions. */
function typeSchema(type: FieldType, fieldName: string, schemas: SchemaSet): Schema {
  switch (type.kind) {
    case 'scalar':
      return scalarSchema(type.scalar, fieldName, type.enum)
    case 'ref':
      return refTo(type.ref)
    case 'map':
      return { type: 'object', additionalProperties: typeSchema(type.values, fieldName, schemas) }
    case 'list':
      return { type: 'array', items: typeSchema(type.items, fieldName, schemas) }
  }
}

/** Field-level extensions: patch strategy and merge key, list type and map keys. */
function fieldExtensions(type: FieldType, schemas: SchemaSet): Schema {
  const ext: Schema = {}
  if (type.kind === 'list') {
    if (type.listType !== undefined) ext['x-kubernetes-list-type'] = type.listType
    if (type.listMapKeys !== undefined) ext['x-kubernetes-list-map-keys'] = [...type.listMapKeys]
    if (type.patchStrategy !== undefined) ext['x-kubernetes-patch-strategy'] = type.patchStrategy
    if (type.patchMergeKey !== undefined) ext['x-kubernetes-patch-merge-key'] = type.patchMergeKey
  } else if (type.kind === 'ref' && schemas[type.ref]?.retainKeys) {
    // A one-of struct reached through a plain field (e.g. DeploymentSpec.strategy).
    ext['x-kubernetes-patch-strategy'] = 'retainKeys'
  }
  return ext
}

export function fieldSchema(name: string, def: FieldDef, schemas: SchemaSet): Schema {
  const base = typeSchema(def.type, name, schemas)
  const extra: Schema = { ...fieldExtensions(def.type, schemas) }
  if (def.description !== undefined) extra.description = def.description
  if (Object.keys(extra).length === 0) return base
  return '$ref' in base ? { allOf: [base], ...extra } : { ...base, ...extra }
}

export function structSchema(def: StructDef, schemas: SchemaSet): Schema {
  const out: Schema = {}
  if (def.description !== undefined) out.description = def.description
  out.type = 'object'
  const properties: Record<string, Schema> = {}
  for (const [name, field] of Object.entries(def.fields))
    properties[name] = fieldSchema(name, field, schemas)
  out.properties = properties
  const required = Object.entries(def.fields)
    .filter(([, f]) => f.required)
    .map(([name]) => name)
  if (required.length > 0) out.required = required
  if (def.open) out['x-kubernetes-preserve-unknown-fields'] = true
  return out
}

/** Every component name `schema` refers to, directly or nested. */
export function refsOf(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) {
    for (const s of schema) refsOf(s, into)
  } else if (schema !== null && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') into.add(refName(v))
      else refsOf(v, into)
    }
  }
  return into
}
