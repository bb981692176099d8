import type { FieldType, SchemaSet } from '../schema-types'
import { isJsonObject, type Json } from '../json-value'
import { PatchError } from './patch-error'
import {
  DELETE,
  DELETE_FROM_PRIMITIVE_LIST,
  PATCH,
  SET_ELEMENT_ORDER,
  deleteFromPrimitiveList,
  isEmptyResultOfDirectives,
  retainKeys,
  setKey,
} from './strategic-directives'
import { badArgType, badPatchType, jsonKind, noMergeKey } from './strategic-errors'
import {
  Positions,
  elementKind,
  normalizeElementOrder,
  normalizeOrder,
  validateOrder,
} from './strategic-order'

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
  if (patch !== null && !isJsonObject(patch)) {
    throw new PatchError(
      `json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`,
      400,
    )
  }
  const shape: FieldType | undefined =
    structName !== undefined && Object.hasOwn(schemas, structName)
      ? { kind: 'ref', ref: structName }
      : undefined
  const live = isJsonObject(original) ? structuredClone(original) : {}
  const merged = new Merger(schemas).mergeMap(
    live,
    patch === null ? {} : structuredClone(patch),
    shape,
  )
  return merged === DELETE ? {} : merged
}

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

  mergeMap(original: Json, patch: Json, shape: FieldType | undefined): Json | typeof DELETE {
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
      const merged = this.mergeValue(
        existed ? original[key] : undefined,
        value,
        this.child(shape, key),
      )
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
    if (isJsonObject(patch))
      return this.mergeMap(isJsonObject(original) ? original : {}, patch, shape)
    if (Array.isArray(patch))
      return this.mergeList(Array.isArray(original) ? original : [], patch, shape)
    return patch
  }

  private mergeList(
    original: unknown[],
    patch: unknown[],
    shape: FieldType | undefined,
  ): unknown[] {
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
      throw new PatchError(
        `cannot merge lists without merge key for ${this.typeName(strategy.items)}`,
        500,
      )
    }

    // Directive elements first: deletions, `replace`, and the unsupported list-level `merge`.
    const elements: Json[] = []
    const deleted = new Set<unknown>()
    let replace = false
    for (const item of patch as Json[]) {
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

    const live = deleted.size
      ? (original as Json[]).filter(
          (el) => !(Object.hasOwn(el, mergeKey) && deleted.has(el[mergeKey])),
        )
      : (original as Json[])
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
  private setElementOrders(original: Json, patch: Json, shape: FieldType | undefined): void {
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
      if (patchList !== undefined && !Array.isArray(patchList))
        throw badArgType('[]interface {}', patchList)
      if (live === undefined && patchList === undefined) continue
      if (!strategy.merge) continue

      const mergeKey =
        elementKind(live ?? [], patchList ?? []) === 'object' ? strategy.mergeKey : undefined
      if (patchList !== undefined) validateOrder(patchList, order, mergeKey)
      const merged =
        patchList === undefined ? live! : this.mergeList(live ?? [], patchList, fieldShape)
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
      if (isJsonObject(item)) {
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
