/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version (apiextensions.k8s.io/v1
 * JSONSchemaProps), and the operations a custom resource goes through with it: pruning of unknown
 * fields, defaulting, and validation, each behaving as kube-apiserver's does.
 */

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
}

export { pruneUnknownFields, dropNonNullableNulls } from './prune'
export { applySchemaDefaults } from './defaults'
export { validateAgainstSchema } from './validate'
export { checkStructural } from './structural'
