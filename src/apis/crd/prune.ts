import type { JSONSchemaProps } from './schema'
import { isJsonObject as isObject } from '../../apimachinery/json-value'

/**
 * Pruning of a custom resource to its structural schema, as kube-apiserver does when it decodes
 * one: fields the schema does not declare are removed, and their paths reported in the form strict
 * decoding uses (`spec.foo`, `spec.items[0].bar`), sorted.
 */

type Obj = Record<string, unknown>

const metaFields = new Set(['apiVersion', 'kind', 'metadata'])

const joinKey = (path: string, key: string) => (path === '' ? key : `${path}.${key}`)

/** The schema a map's values follow: the additionalProperties schema, none for a boolean. */
function valueSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined
}

const hasProperty = (s: JSONSchemaProps, key: string) =>
  s.properties !== undefined && Object.hasOwn(s.properties, key)

/**
 * Removes, in place, every field of `obj` its schema does not declare and returns their paths,
 * sorted. The object root is an embedded resource: its `apiVersion`, `kind` and `metadata` are
 * kept as they are, as are those of any object marked `x-kubernetes-embedded-resource`. Below
 * `x-kubernetes-preserve-unknown-fields: true` only the declared fields are pruned further; an
 * `additionalProperties` schema prunes every value of its map. Nulls of non-nullable fields without
 * a default are then dropped, unreported.
 */
export function pruneUnknownFields(
  schema: JSONSchemaProps,
  obj: Record<string, unknown>,
): string[] {
  const removed: string[] = []
  const root: JSONSchemaProps = { ...schema, 'x-kubernetes-embedded-resource': true }
  prune(obj, root, '', removed)
  dropNonNullableNulls(schema, obj)
  return removed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

function prune(x: unknown, s: JSONSchemaProps | undefined, path: string, removed: string[]): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) return skipPrune(x, s, path, removed)
  if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      if (s === undefined) {
        removed.push(joinKey(path, k))
        delete x[k]
        continue
      }
      if (s['x-kubernetes-embedded-resource'] && metaFields.has(k)) continue
      if (hasProperty(s, k)) prune(v, s.properties![k], joinKey(path, k), removed)
      else if (s.additionalProperties !== undefined)
        prune(v, valueSchema(s), joinKey(path, k), removed)
      else {
        if (!metaFields.has(k) || path !== '') removed.push(joinKey(path, k))
        delete x[k]
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s?.items, `${path}[${i}]`, removed))
  }
}

/** Below preserve-unknown-fields: unknown fields stay, declared ones are pruned by their schema. */
function skipPrune(
  x: unknown,
  s: JSONSchemaProps | undefined,
  path: string,
  removed: string[],
): void {
  if (s === undefined) return
  if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      if (s['x-kubernetes-embedded-resource'] && metaFields.has(k)) continue
      if (hasProperty(s, k)) prune(v, s.properties![k], joinKey(path, k), removed)
      else if (s.additionalProperties !== undefined)
        prune(v, valueSchema(s), joinKey(path, k), removed)
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => skipPrune(v, s.items, `${path}[${i}]`, removed))
  }
}

/** The schema of one field of an object: its property, else the additionalProperties schema. */
function fieldSchema(s: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  if (s === undefined) return undefined
  if (hasProperty(s, key)) return s.properties![key]
  return valueSchema(s)
}

/**
 * Removes, in place, every null whose schema is neither nullable nor defaulted (a null for a
 * defaulted field is replaced by its default instead), as decoding a custom resource does.
 */
export function dropNonNullableNulls(schema: JSONSchemaProps | undefined, x: unknown): void {
  if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const s = fieldSchema(schema, k)
      if (
        v === null &&
        s !== undefined &&
        !s.nullable &&
        (s.default === undefined || s.default === null)
      )
        delete x[k]
      else dropNonNullableNulls(s, v)
    }
  } else if (Array.isArray(x)) {
    for (const v of x) dropNonNullableNulls(schema?.items, v)
  }
}
