/** The errors of a strategic merge patch, worded as k8s.io/apimachinery/pkg/util/strategicpatch words them. */
import type { Json } from '../json-value'
import { PatchError, goFormat } from './patch-error'

export const badPatchType = (directive: unknown, map: Json) =>
  new PatchError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(map)}`, 500)

export const noMergeKey = (map: Json, key: string) =>
  new PatchError(`map: ${goFormat(map)} does not contain declared merge key: ${key}`, 500)

export function badArgType(expected: string, actual: unknown): PatchError {
  return new PatchError(`expected a ${expected}, but received a ${goType(actual)}`, 500)
}

/** The Go type name a decoded JSON value has, for upstream's type assertion errors. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>'
  if (Array.isArray(value)) return '[]interface {}'
  if (typeof value === 'object') return 'map[string]interface {}'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64'
  if (typeof value === 'boolean') return 'bool'
  return 'string'
}

/** The JSON kind of a value, as Go's decoder names it. */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
}
