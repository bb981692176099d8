/** The order of a merged list: upstream's element order, `$setElementOrder` checks, and positions by merge key. */
import { isJsonObject } from '../json-value'
import { PatchError, goFormat } from './patch-error'
import { PATCH, SET_ELEMENT_ORDER } from './strategic-directives'
import { badArgType, noMergeKey } from './strategic-errors'

/**
 * Upstream's order of a merged list without `$setElementOrder`: elements the patch names follow
 * the patch order, the other live elements keep their live order, and the two interleave by the
 * live order. A new element therefore lands before the live ones it is not ordered against.
 */
export function normalizeOrder(
  merged: unknown[],
  patchOrder: unknown[],
  live: unknown[],
  mergeKey: string | undefined,
): unknown[] {
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
export function normalizeElementOrder(
  named: unknown[],
  liveOnly: unknown[],
  order: unknown[],
  live: unknown[],
  mergeKey: string | undefined,
): unknown[] {
  const livePositions = new Positions(live, mergeKey)
  const byIndexIn = (positions: Positions) => (a: unknown, b: unknown) =>
    positions.rank(a) - positions.rank(b)
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
export class Positions {
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
    return isJsonObject(item) && Object.hasOwn(item, this.mergeKey) ? item[this.mergeKey] : NO_KEY
  }
}

/** An object element without the merge key: found in no list. */
const NO_KEY = Symbol('no merge key')

/**
 * The patch list must be a subsequence of `$setElementOrder` (deletions and directive elements
 * aside), as upstream's validatePatchWithSetOrderList requires.
 */
export function validateOrder(
  patchList: unknown[],
  order: unknown[],
  mergeKey: string | undefined,
): void {
  if (order.length === 0 || patchList.length === 0) return
  const items =
    mergeKey === undefined
      ? patchList
      : patchList.filter((item) => !(isJsonObject(item) && item[PATCH] === 'delete'))
  let p = 0
  let o = 0
  while (p < items.length && o < order.length) {
    const item = items[p]
    if (isJsonObject(item) && Object.hasOwn(item, PATCH)) {
      p++
      continue
    }
    if (mergeKey !== undefined) {
      const wanted = order[o]
      if (!isJsonObject(item)) throw badArgType('map[string]interface {}', item)
      if (!isJsonObject(wanted)) throw badArgType('map[string]interface {}', wanted)
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
export function elementKind(...lists: unknown[][]): 'none' | 'object' | 'scalar' {
  let kind: 'object' | 'scalar' | undefined
  for (const list of lists) {
    for (const item of list) {
      if (Array.isArray(item)) throw new PatchError('lists of lists are not supported', 422)
      const k = isJsonObject(item) ? 'object' : 'scalar'
      if (kind !== undefined && kind !== k) {
        throw new PatchError(`list element types are not identical: ${goFormat(lists)}`, 500)
      }
      kind = k
    }
  }
  return kind ?? 'none'
}
