/**
 * Small constructors for the schema DSL of ./types, so that each field of the schema data files
 * reads as one short line.
 */
import type {
  FieldDef,
  FieldType,
  SchemaSet,
  Scalar,
  StructDef,
} from '../../apimachinery/schema-types'

/** Struct name prefixes, as in the upstream OpenAPI definition names. */
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.'
export const CORE = 'io.k8s.api.core.v1.'
export const APPS = 'io.k8s.api.apps.v1.'
export const BATCH = 'io.k8s.api.batch.v1.'
export const COORDINATION = 'io.k8s.api.coordination.v1.'
export const DISCOVERY = 'io.k8s.api.discovery.v1.'
export const AUTOSCALING = 'io.k8s.api.autoscaling.v1.'
export const POLICY = 'io.k8s.api.policy.v1.'
export const RBAC = 'io.k8s.api.rbac.v1.'
export const NETWORKING = 'io.k8s.api.networking.v1.'
export const ADMISSIONREGISTRATION = 'io.k8s.api.admissionregistration.v1.'

const field = (type: FieldType, description?: string): FieldDef =>
  description === undefined ? { type } : { type, description }

const scalar = (s: Scalar, description?: string): FieldDef =>
  field({ kind: 'scalar', scalar: s }, description)

export const str = (description?: string) => scalar('string', description)
export const int = (description?: string) => scalar('integer', description)
export const num = (description?: string) => scalar('number', description)
export const bool = (description?: string) => scalar('boolean', description)
export const time = (description?: string) => scalar('time', description)
export const quantity = (description?: string) => scalar('quantity', description)
export const intOrString = (description?: string) => scalar('intOrString', description)
export const bytes = (description?: string) => scalar('bytes', description)
export const any = (description?: string) => scalar('any', description)

/** A string with well-known values. Only documents them: values outside the list are not rejected here. */
export const enumOf = (values: readonly string[], description?: string): FieldDef =>
  field({ kind: 'scalar', scalar: 'string', enum: values }, description)

/** A reference to a named struct of the schema set. */
export const ref = (name: string, description?: string): FieldDef =>
  field({ kind: 'ref', ref: name }, description)

/** A string-keyed map (Go `map[string]T`). */
export const mapOf = (values: FieldDef, description?: string): FieldDef =>
  field({ kind: 'map', values: values.type }, description)

/** A field the upstream OpenAPI schema lists as required. */
export const required = (def: FieldDef): FieldDef => ({ ...def, required: true })

export interface ListOptions {
  /** `patchMergeKey`; implies `patchStrategy: merge` unless `strategy` says otherwise */
  mergeKey?: string
  strategy?: 'merge' | 'retainKeys' | 'merge,retainKeys'
  /** defaults: `map` keyed by the merge key, `set` for merged scalar lists, else `atomic` */
  listType?: 'atomic' | 'map' | 'set'
  mapKeys?: readonly string[]
  description?: string
}

/** A list (Go slice). Pass a string as the second argument for a plain atomic list with a description. */
export function listOf(items: FieldDef, options: ListOptions | string = {}): FieldDef {
  const o: ListOptions = typeof options === 'string' ? { description: options } : options
  const patchStrategy = o.strategy ?? (o.mergeKey !== undefined ? 'merge' : undefined)
  const scalarItems = items.type.kind === 'scalar'
  const listType =
    o.listType ??
    (o.mergeKey !== undefined || o.mapKeys !== undefined
      ? 'map'
      : patchStrategy !== undefined && scalarItems
        ? 'set'
        : 'atomic')
  const type: FieldType = { kind: 'list', items: items.type, listType }
  if (patchStrategy !== undefined) type.patchStrategy = patchStrategy
  if (o.mergeKey !== undefined) type.patchMergeKey = o.mergeKey
  if (listType === 'map') {
    const keys = o.mapKeys ?? (o.mergeKey !== undefined ? [o.mergeKey] : undefined)
    if (keys !== undefined) type.listMapKeys = keys
  }
  return field(type, o.description)
}

export interface StructOptions {
  description?: string
  retainKeys?: boolean
  open?: boolean
}

/** A struct; pass a string as the second argument for just a description. */
export function struct(
  fields: Record<string, FieldDef>,
  options: StructOptions | string = {},
): StructDef {
  const o: StructOptions = typeof options === 'string' ? { description: options } : options
  const def: StructDef = { fields }
  if (o.description !== undefined) def.description = o.description
  if (o.retainKeys) def.retainKeys = true
  if (o.open) def.open = true
  return def
}

/** The fields every top-level kind starts with (metav1.TypeMeta inlined, then `metadata`). */
export const typeMeta = (): Record<string, FieldDef> => ({
  apiVersion: str(
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  ),
  kind: str(
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.',
  ),
})

/** A top-level kind: apiVersion, kind, metadata (ObjectMeta), then the given fields. */
export const kind = (description: string, fields: Record<string, FieldDef>): StructDef =>
  struct(
    {
      ...typeMeta(),
      metadata: ref(META + 'ObjectMeta', "Standard object's metadata."),
      ...fields,
    },
    description,
  )

/** Names every struct of `defs` with `prefix` (e.g. `io.k8s.api.core.v1.`). */
export function group(prefix: string, defs: Record<string, StructDef>): SchemaSet {
  const out: SchemaSet = {}
  for (const [name, def] of Object.entries(defs)) out[prefix + name] = def
  return out
}
