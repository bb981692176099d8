/** The `$`-directives of a strategic merge patch: their names, `$retainKeys` and `$deleteFromPrimitiveList`. */
import type { Json } from '../json-value'
import { PatchError } from './patch-error'
import { badArgType } from './strategic-errors'

/** What a `$patch: delete` object turns into: its key is removed from the parent. */
export const DELETE = Symbol('delete')

/** The directive keys. */
export const PATCH = '$patch'
export const RETAIN_KEYS = '$retainKeys'
export const SET_ELEMENT_ORDER = '$setElementOrder/'
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/'

/**
 * `$retainKeys` (union structs): every live key it does not list is cleared before merging, and
 * the patch may only set keys it lists.
 */
export function retainKeys(original: Json, patch: Json): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return
  const list = patch[RETAIN_KEYS]
  delete patch[RETAIN_KEYS]
  if (!Array.isArray(list)) throw new PatchError('invalid patch format of retainKeys', 400)
  const keep = new Set(list)
  for (const [key, value] of Object.entries(patch)) {
    if (
      value === null ||
      key.startsWith(DELETE_FROM_PRIMITIVE_LIST) ||
      key.startsWith(SET_ELEMENT_ORDER)
    )
      continue
    if (!keep.has(key)) throw new PatchError("patch content doesn't match retainKeys list", 422)
  }
  for (const key of Object.keys(original)) if (!keep.has(key)) delete original[key]
}

/** A non-empty patch list that merged into nothing: it held only directives, such as deletions. */
export function isEmptyResultOfDirectives(merged: unknown, patch: unknown): boolean {
  return Array.isArray(merged) && merged.length === 0 && Array.isArray(patch) && patch.length > 0
}

/** `$deleteFromPrimitiveList/<field>`: removes the listed values from a merged primitive list. */
export function deleteFromPrimitiveList(original: Json, field: string, values: unknown): void {
  if (!Array.isArray(values)) throw badArgType('[]interface {}', values)
  const live = Object.hasOwn(original, field) ? original[field] : undefined
  const gone = new Set(values)
  if (Array.isArray(live))
    setKey(
      original,
      field,
      live.filter((item) => !gone.has(item)),
    )
}

/** Assigns without letting a `__proto__` member of a parsed body reach the prototype. */
export function setKey(obj: Json, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  else obj[key] = value
}
