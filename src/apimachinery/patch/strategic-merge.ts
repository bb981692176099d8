import type { FieldType, SchemaSet } from '../schema-types'
import { PatchError, goFormat } from './patch-error'

/**
 * Strategic merge patch, the `application/strategic-merge-patch+json` body of client-side
 * `kubectl apply`, `edit`, `set image`, `rollout restart`, `cordon` and `patch`, applied the way
 * k8s.io/apimachinery/pkg/util/strategicpatch does on the server:
 * - objects merge key by key and `null` deletes a key;
 * - `$patch: replace` replaces an object, `$patch: delete` removes it (`merge` is the default);
 * - `$retainKeys` first clears every live key it does not list (union structs such as
 *   DeploymentStrategy and VolumeSource);
 * - lists whose field has `patchStrategy: merge` merge element by element on `patchMergeKey`
 *   (live elements the patch does not name are kept; `$patch: delete` elements remove, a
 *   `{"$patch": "replace"}` element makes the rest of the list replace the live one), and merged
 *   primitive lists take the union, minus `$deleteFromPrimitiveList/<field>`;
 * - `$setElementOrder/<field>` orders the merged list;
 * - every other list is replaced.
 * The directives never reach the result. With no struct (`structName` undefined or unknown) no
 * list merges, so the patch acts as a JSON merge patch that understands the object directives.
 */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  structName: string | undefined,
  schemas: SchemaSet,
): unknown {
  // A `null` body decodes to an empty patch upstream; anything else but an object is rejected.
  if (patch !== null && !isObject(patch)) {
    throw new PatchError(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`, 400)
  }
  const shape: FieldType | undefined =
    structName !== undefined && Object.hasOwn(schemas, structName) ? { kind: 'ref', ref: structName } : undefined
  const live = isObject(original) ? structuredClone(original) : {}
  const merged = new Merger(schemas).mergeMap(live, patch === null ? {} : structuredClone(patch), shape)
  return merged === DELETE ? {} : merged
}

type JsonObject = Record<string, unknown>

/** What a `$patch: delete` object turns into: its key is removed from the parent. */
const DELETE = Symbol('delete')

const PATCH = '$patch'
const RETAIN_KEYS = '$retainKeys'
const SET_ELEMENT_ORDER = '$setElementOrder/'
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/'

/** How a list field patches, from the `patchStrategy` and `patchMergeKey` of its Go field. */
interface ListStrategy {
  merge: boolean
  mergeKey?: string
  items?: FieldType
}

/**
 * Walks patch and live object together, with the schema type of the current value. Both inputs
 * are private copies, so the walk merges in place like upstream does.
 */
class Merger {
  constructor(private readonly schemas: SchemaSet) {}

  mergeMap(original: JsonObject, patch: JsonObject, shape: FieldType | undefined): JsonObject | typeof DELETE {
    if (Object.hasOwn(patch, PATCH)) {
      const directive = patch[PATCH]
      if (directive === 'delete') return DELETE
      if (directive === 'replace') {
        delete patch[PATCH]
        return this.mergeMap({}, patch, shape)
      }
      if (directive !== 'merge') throw badPatchType(directive, patch)
      delete patch[PATCH]
    }

    retainKeys(original, patch)
    this.setElementOrders(original, patch, shape)

    const deletions: [string, unknown][] = []
    for (const [key, value] of Object.entries(patch)) {
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        deletions.push([key.slice(DELETE_FROM_PRIMITIVE_LIST.length), value])
        continue
      }
      if (value === null) {
        delete original[key]
        continue
      }
      const existed = Object.hasOwn(original, key)
      const merged = this.mergeValue(existed ? original[key] : undefined, value, this.child(shape, key))
      if (merged === DELETE) delete original[key]
      // A list of only directives (e.g. deletions) for a list the object does not have leaves it absent.
      else if (!existed && isEmptyResultOfDirectives(merged, value)) continue
      else setKey(original, key, merged)
    }
    for (const [key, values] of deletions) deleteFromPrimitiveList(original, key, values)
    return original
  }

  /** Merges a non-null patch value into the live value (absent, or of another JSON type, merges into nothing). */
  private mergeValue(original: unknown, patch: unknown, shape: FieldType | undefined): unknown {
    if (isObject(patch)) return this.mergeMap(isObject(original) ? original : {}, patch, shape)
    if (Array.isArray(patch)) return this.mergeList(Array.isArray(original) ? original : [], patch, shape)
    return patch
  }

  private mergeList(original: unknown[], patch: unknown[], shape: FieldType | undefined): unknown[] {
    const strategy = this.listStrategy(shape)
    if (!strategy.merge) return this.freshList(patch, strategy.items)

    const kind = elementKind(original, patch)
    if (kind === 'none') return original
    if (kind === 'scalar') {
      const merged = [...new Set([...original, ...patch])]
      return normalizeOrder(merged, patch, original, undefined)
    }

    const mergeKey = strategy.mergeKey
    if (mergeKey === undefined) {
      throw new PatchError(`cannot merge lists without merge key for ${this.typeName(strategy.items)}`, 500)
    }

    // Directive elements first: deletions, `replace`, and the unsupported list-level `merge`.
    const elements: JsonObject[] = []
    const deleted = new Set<unknown>()
    let replace = false
    for (const item of patch as JsonObject[]) {
      if (!Object.hasOwn(item, PATCH)) {
        elements.push(item)
        continue
      }
      const directive = item[PATCH]
      if (directive === 'delete') {
        if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey)
        deleted.add(item[mergeKey])
      } else if (directive === 'replace') {
        replace = true
      } else if (directive === 'merge') {
        throw new PatchError('merging lists cannot yet be specified in the patch', 500)
      } else {
        throw badPatchType(directive, item)
      }
    }
    if (replace) return this.freshList(elements, strategy.items)

    const live = deleted.size ? (original as JsonObject[]).filter((el) => !(Object.hasOwn(el, mergeKey) && deleted.has(el[mergeKey]))) : (original as JsonObject[])
    // Elements are found by merge key through one index, so a long list merges in linear time.
    const merged = [...live]
    const at = new Positions(merged, mergeKey)
    for (const item of elements) {
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey)
      const i = at.of(item)
      const result = this.mergeMap(i >= 0 ? merged[i]! : {}, item, strategy.items)
      if (result === DELETE) continue
      if (i >= 0) merged[i] = result
      else at.add(result, merged.push(result) - 1)
    }
    return normalizeOrder(merged, elements, live, mergeKey)
  }

  /**
   * `$setElementOrder/<field>` names the wanted order of a merged list. The list and its patch
   * are merged here, then ordered: elements named in the directive follow its order, and live
   * elements it does not name keep their place relative to the live list.
   */
  private setElementOrders(original: JsonObject, patch: JsonObject, shape: FieldType | undefined): void {
    for (const key of Object.keys(patch)) {
      if (!key.startsWith(SET_ELEMENT_ORDER)) continue
      const order = patch[key]
      delete patch[key]
      if (!Array.isArray(order)) throw badArgType('[]interface {}', order)
      const field = key.slice(SET_ELEMENT_ORDER.length)
      const fieldShape = this.child(shape, field)
      const strategy = this.listStrategy(fieldShape)

      const live = Object.hasOwn(original, field) ? original[field] : undefined
      const patchList = Object.hasOwn(patch, field) ? patch[field] : undefined
      if (live !== undefined && !Array.isArray(live)) throw badArgType('[]interface {}', live)
      // A null list is a deletion, left to the main merge.
      if (patchList === null) continue
      if (patchList !== undefined && !Array.isArray(patchList)) throw badArgType('[]interface {}', patchList)
      if (live === undefined && patchList === undefined) continue
      if (!strategy.merge) continue

      const mergeKey = elementKind(live ?? [], patchList ?? []) === 'object' ? strategy.mergeKey : undefined
      if (patchList !== undefined) validateOrder(patchList, order, mergeKey)
      const merged = patchList === undefined ? live! : this.mergeList(live ?? [], patchList, fieldShape)
      const ordered = new Positions(order, mergeKey)
      const inOrder = (item: unknown) => ordered.of(item) >= 0
      delete patch[field]
      if (live === undefined && isEmptyResultOfDirectives(merged, patchList)) continue
      const named = merged.filter(inOrder)
      const liveOnly = merged.filter((item) => !inOrder(item))
      setKey(original, field, normalizeElementOrder(named, liveOnly, order, live ?? [], mergeKey))
    }
  }

  /** A patch list stored as given: each element merged into nothing, directive elements dropped. */
  private freshList(patch: unknown[], items: FieldType | undefined): unknown[] {
    const out: unknown[] = []
    for (const item of patch) {
      if (isObject(item)) {
        if (Object.hasOwn(item, PATCH)) continue
        const merged = this.mergeMap({}, item, items)
        if (merged !== DELETE) out.push(merged)
      } else if (Array.isArray(item)) {
        out.push(this.freshList(item, undefined))
      } else {
        out.push(item)
      }
    }
    return out
  }

  /** The schema type of `key` inside a value of type `shape`: a struct field, or a map's values. */
  private child(shape: FieldType | undefined, key: string): FieldType | undefined {
    if (shape?.kind === 'ref') {
      const struct = this.schemas[shape.ref]
      return struct && Object.hasOwn(struct.fields, key) ? struct.fields[key]!.type : undefined
    }
    if (shape?.kind === 'map') return shape.values
    return undefined
  }

  private listStrategy(shape: FieldType | undefined): ListStrategy {
    if (shape?.kind !== 'list') return { merge: false }
    const merge = shape.patchStrategy?.split(',').includes('merge') ?? false
    const strategy: ListStrategy = { merge, items: shape.items }
    if (shape.patchMergeKey !== undefined) strategy.mergeKey = shape.patchMergeKey
    return strategy
  }

  private typeName(items: FieldType | undefined): string {
    return items?.kind === 'ref' ? items.ref : 'map'
  }
}

/**
 * `$retainKeys` (union structs): every live key it does not list is cleared before merging, and
 * the patch may only set keys it lists.
 */
function retainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return
  const list = patch[RETAIN_KEYS]
  delete patch[RETAIN_KEYS]
  if (!Array.isArray(list)) throw new PatchError('invalid patch format of retainKeys', 400)
  const keep = new Set(list)
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)) continue
    if (!keep.has(key)) throw new PatchError("patch content doesn't match retainKeys list", 422)
  }
  for (const key of Object.keys(original)) if (!keep.has(key)) delete original[key]
}

/** A non-empty patch list that merged into nothing: it held only directives, such as deletions. */
function isEmptyResultOfDirectives(merged: unknown, patch: unknown): boolean {
  return Array.isArray(merged) && merged.length === 0 && Array.isArray(patch) && patch.length > 0
}

/** `$deleteFromPrimitiveList/<field>`: removes the listed values from a merged primitive list. */
function deleteFromPrimitiveList(original: JsonObject, field: string, values: unknown): void {
  if (!Array.isArray(values)) throw badArgType('[]interface {}', values)
  const live = Object.hasOwn(original, field) ? original[field] : undefined
  const gone = new Set(values)
  if (Array.isArray(live)) setKey(original, field, live.filter((item) => !gone.has(item)))
}

/**
 * Upstream's order of a merged list without `$setElementOrder`: elements the patch names follow
 * the patch order, the other live elements keep their live order, and the two interleave by the
 * live order. A new element therefore lands before the live ones it is not ordered against.
 */
function normalizeOrder(merged: unknown[], patchOrder: unknown[], live: unknown[], mergeKey: string | undefined): unknown[] {
  const patched = new Positions(patchOrder, mergeKey)
  const inPatch = (item: unknown) => patched.of(item) >= 0
  return normalizeElementOrder(
    merged.filter(inPatch),
    merged.filter((item) => !inPatch(item)),
    patchOrder,
    live,
    mergeKey,
  )
}

/**
 * Sorts `named` by `order` and `liveOnly` by the live list, then merges the two: a live-only
 * element goes first when both it and the next named element are live and it came first there.
 * This matches strategicpatch's normalizeElementOrder/mergeSortedSlice, so live-only elements
 * that preceded the named ones in the live list stay in front, and the others keep their slot.
 */
function normalizeElementOrder(
  named: unknown[],
  liveOnly: unknown[],
  order: unknown[],
  live: unknown[],
  mergeKey: string | undefined,
): unknown[] {
  const livePositions = new Positions(live, mergeKey)
  const byIndexIn = (positions: Positions) => (a: unknown, b: unknown) => positions.rank(a) - positions.rank(b)
  const left = [...liveOnly].sort(byIndexIn(livePositions))
  const right = [...named].sort(byIndexIn(new Positions(order, mergeKey)))
  const out: unknown[] = []
  let i = 0
  let j = 0
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++])
    else if (i >= left.length) out.push(right[j++])
    else {
      const li = livePositions.of(left[i])
      const ri = livePositions.of(right[j])
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++])
      else out.push(right[j++])
    }
  }
  return out
}

/**
 * The first position of each element of a list, by merge key value for lists of objects and by
 * value for lists of scalars: built once, so finding an element costs one map lookup.
 */
class Positions {
  private readonly first = new Map<unknown, number>()

  constructor(
    list: readonly unknown[],
    private readonly mergeKey: string | undefined,
  ) {
    list.forEach((item, i) => this.add(item, i))
  }

  add(item: unknown, index: number): void {
    const key = this.keyOf(item)
    if (key !== NO_KEY && !this.first.has(key)) this.first.set(key, index)
  }

  /** The element's position, or -1. */
  of(item: unknown): number {
    const key = this.keyOf(item)
    return key === NO_KEY ? -1 : (this.first.get(key) ?? -1)
  }

  /** The position to sort by: elements not in the list sort last. */
  rank(item: unknown): number {
    const i = this.of(item)
    return i < 0 ? Number.MAX_SAFE_INTEGER : i
  }

  private keyOf(item: unknown): unknown {
    if (this.mergeKey === undefined) return item
    return isObject(item) && Object.hasOwn(item, this.mergeKey) ? item[this.mergeKey] : NO_KEY
  }
}

/** An object element without the merge key: found in no list. */
const NO_KEY = Symbol('no merge key')

/**
 * The patch list must be a subsequence of `$setElementOrder` (deletions and directive elements
 * aside), as upstream's validatePatchWithSetOrderList requires.
 */
function validateOrder(patchList: unknown[], order: unknown[], mergeKey: string | undefined): void {
  if (order.length === 0 || patchList.length === 0) return
  const items = mergeKey === undefined ? patchList : patchList.filter((item) => !(isObject(item) && item[PATCH] === 'delete'))
  let p = 0
  let o = 0
  while (p < items.length && o < order.length) {
    const item = items[p]
    if (isObject(item) && Object.hasOwn(item, PATCH)) {
      p++
      continue
    }
    if (mergeKey !== undefined) {
      const wanted = order[o]
      if (!isObject(item)) throw badArgType('map[string]interface {}', item)
      if (!isObject(wanted)) throw badArgType('map[string]interface {}', wanted)
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey)
      if (!Object.hasOwn(wanted, mergeKey)) throw noMergeKey(wanted, mergeKey)
      if (item[mergeKey] === wanted[mergeKey]) p++
    } else if (item === order[o]) {
      p++
    }
    o++
  }
  if (p < items.length && o >= order.length) {
    throw new PatchError(
      `The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER.slice(0, -1)} list:\n${goFormat(order)}\n`,
      500,
    )
  }
}

/** All elements of a merged list are objects or all are scalars; lists of lists cannot merge. */
function elementKind(...lists: unknown[][]): 'none' | 'object' | 'scalar' {
  let kind: 'object' | 'scalar' | undefined
  for (const list of lists) {
    for (const item of list) {
      if (Array.isArray(item)) throw new PatchError('lists of lists are not supported', 422)
      const k = isObject(item) ? 'object' : 'scalar'
      if (kind !== undefined && kind !== k) {
        throw new PatchError(`list element types are not identical: ${goFormat(lists)}`, 500)
      }
      kind = k
    }
  }
  return kind ?? 'none'
}

const badPatchType = (directive: unknown, map: JsonObject) =>
  new PatchError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(map)}`, 500)

const noMergeKey = (map: JsonObject, key: string) =>
  new PatchError(`map: ${goFormat(map)} does not contain declared merge key: ${key}`, 500)

function badArgType(expected: string, actual: unknown): PatchError {
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

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  if (typeof value === 'boolean') return 'bool'
  return typeof value
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Assigns without letting a `__proto__` member of a parsed body reach the prototype. */
function setKey(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  else obj[key] = value
}
