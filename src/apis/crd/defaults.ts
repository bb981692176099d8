import type { JSONSchemaProps } from './schema'
import { isJsonObject as isObject } from '../../apimachinery/json-value'

/**
 * Structural defaulting of a custom resource, as kube-apiserver applies it when it decodes one
 * (before validation, on create and update alike).
 */

type Obj = Record<string, unknown>

const hasDefault = (s: JSONSchemaProps | undefined): s is JSONSchemaProps =>
  s !== undefined && s.default !== undefined && s.default !== null

/** A null where the schema does not allow one. */
const isNonNullableNull = (v: unknown, s: JSONSchemaProps | undefined) =>
  v === null && s !== undefined && !s.nullable

const copy = (v: unknown): unknown => structuredClone(v)

/**
 * Fills in, in place, the `default` of every declared property that is missing (or null while not
 * nullable), then recurses into every declared property, map value (`additionalProperties`
 * schema) and array item, where null items and map values that are not nullable also take their
 * schema's default. Defaults are copied, and are themselves defaulted as the recursion reaches them.
 */
export function applySchemaDefaults(schema: JSONSchemaProps | undefined, obj: unknown): void {
  if (schema === undefined) return
  if (isObject(obj)) {
    for (const [k, prop] of Object.entries(schema.properties ?? {})) {
      if (!hasDefault(prop)) continue
      if (!Object.hasOwn(obj, k) || isNonNullableNull(obj[k], prop)) obj[k] = copy(prop.default)
    }
    const values = isObject(schema.additionalProperties)
      ? (schema.additionalProperties as JSONSchemaProps)
      : undefined
    for (const k of Object.keys(obj)) {
      if (schema.properties && Object.hasOwn(schema.properties, k))
        applySchemaDefaults(schema.properties[k], obj[k])
      else if (schema.additionalProperties !== undefined) {
        if (hasDefault(values) && isNonNullableNull(obj[k], values)) obj[k] = copy(values.default)
        applySchemaDefaults(values, obj[k])
      }
    }
  } else if (Array.isArray(obj)) {
    const items = schema.items
    for (let i = 0; i < obj.length; i++) {
      if (hasDefault(items) && isNonNullableNull(obj[i], items)) obj[i] = copy(items.default)
      applySchemaDefaults(items, obj[i])
    }
  }
}
