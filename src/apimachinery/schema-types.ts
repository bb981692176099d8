/**
 * A compact structural description of API types: the one schema source the server uses to detect
 * unknown fields (fieldValidation), to apply strategic merge patches (patch strategies and merge
 * keys) and to publish OpenAPI. Field names, patch strategies and merge keys follow the upstream
 * Go types of each group/version.
 */
export type Scalar =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  /** RFC 3339 timestamp (metav1.Time) */
  | 'time'
  /** resource.Quantity: a string such as "500m" or "1Gi", or a number */
  | 'quantity'
  /** intstr.IntOrString */
  | 'intOrString'
  /** base64 bytes ([]byte) */
  | 'bytes'
  /** anything (runtime.RawExtension, free-form JSON) */
  | 'any'

export type FieldType =
  | { kind: 'scalar'; scalar: Scalar; enum?: readonly string[] }
  /** a named struct in the schema set */
  | { kind: 'ref'; ref: string }
  | { kind: 'map'; values: FieldType }
  | {
      kind: 'list'
      items: FieldType
      /** strategic merge patch: `patchStrategy` of the Go field */
      patchStrategy?: 'merge' | 'retainKeys' | 'merge,retainKeys'
      /** strategic merge patch: `patchMergeKey` of the Go field */
      patchMergeKey?: string
      /** server-side apply: `listType` and `listMapKeys` markers */
      listType?: 'atomic' | 'map' | 'set'
      listMapKeys?: readonly string[]
    }

export interface FieldDef {
  type: FieldType
  description?: string
  required?: boolean
}

export interface StructDef {
  description?: string
  fields: Record<string, FieldDef>
  /** the struct is a union whose strategic merge patches carry `$retainKeys` (e.g. VolumeSource) */
  retainKeys?: boolean
  /** map fields other than the declared ones are allowed (e.g. x-kubernetes-preserve-unknown-fields) */
  open?: boolean
}

/** Every struct of the served groups, by name (e.g. "io.k8s.api.core.v1.PodSpec"). */
export type SchemaSet = Record<string, StructDef>
