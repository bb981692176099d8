/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version (apiextensions.k8s.io/v1
 * JSONSchemaProps). What a custom resource goes through with it, each as kube-apiserver does it,
 * has its own module: pruning of unknown fields (prune.ts), defaulting (defaults.ts), validation
 * (validate.ts) and the structural-schema check (structural.ts).
 */

/** One `x-kubernetes-validations` entry: a CEL rule on the value at its place in the schema. */
export interface ValidationRule {
  rule?: string
  message?: string
  messageExpression?: string
  reason?: string
  fieldPath?: string
  optionalOldSelf?: boolean
}

export interface JSONSchemaProps {
  type?: string
  format?: string
  title?: string
  description?: string
  properties?: Record<string, JSONSchemaProps>
  required?: string[]
  items?: JSONSchemaProps
  additionalProperties?: boolean | JSONSchemaProps
  enum?: unknown[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: boolean
  exclusiveMaximum?: boolean
  multipleOf?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  minProperties?: number
  maxProperties?: number
  nullable?: boolean
  default?: unknown
  example?: unknown
  /** value validation only: these never declare fields for pruning or defaulting */
  allOf?: JSONSchemaProps[]
  anyOf?: JSONSchemaProps[]
  oneOf?: JSONSchemaProps[]
  not?: JSONSchemaProps
  'x-kubernetes-preserve-unknown-fields'?: boolean
  'x-kubernetes-int-or-string'?: boolean
  'x-kubernetes-embedded-resource'?: boolean
  'x-kubernetes-list-type'?: string
  'x-kubernetes-list-map-keys'?: string[]
  'x-kubernetes-map-type'?: string
  'x-kubernetes-validations'?: ValidationRule[]
}
