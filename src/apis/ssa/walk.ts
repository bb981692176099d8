/** The schema-aware walks over values: the set of fields a value sets, and the leaves two values disagree on. */
import type { FieldType } from '../../apimachinery/schema-types'
import { FieldSet, fieldElement, type Path } from './fieldset'
import { childType, declared, isObject, itemElement, resolve, sameValue, setElement } from './types'

/** Every field the value sets, as upstream's ToFieldSet: leaves, list items, map entries. */
export function asRecord(t: FieldType | undefined, value: unknown): FieldSet {
  const set = new FieldSet()
  collect(t, value, [], set)
  return set
}

function collect(t: FieldType | undefined, v: unknown, path: Path, set: FieldSet): void {
  const node = resolve(t, v)
  if (node.kind === 'leaf') return set.insert(path)
  if (node.kind === 'struct' || node.kind === 'map') {
    if (!isObject(v)) return set.insert(path)
    for (const [k, cv] of Object.entries(v)) {
      if (cv === undefined) continue
      const p = [...path, fieldElement(k)]
      if (cv === null || (isObject(cv) && Object.keys(cv).length === 0) || !declared(node, k))
        set.insert(p)
      collect(childType(node, k), cv, p, set)
    }
    return
  }
  if (!Array.isArray(v)) return set.insert(path)
  if (node.kind === 'set') {
    for (const item of v) set.insert([...path, setElement(item)])
    return
  }
  for (const item of v) {
    const p = [...path, itemElement(node.keys, item)]
    set.insert(p)
    collect(node.items, item, p, set)
  }
}

/** The fields present in both values whose values differ (upstream's Comparison.Modified). */
export function modifiedFields(
  t: FieldType | undefined,
  before: unknown,
  after: unknown,
): FieldSet {
  const set = new FieldSet()
  compare(t, before, after, [], set)
  return set
}

function compare(
  t: FieldType | undefined,
  a: unknown,
  b: unknown,
  path: Path,
  set: FieldSet,
): void {
  if (sameValue(a, b)) return
  const node = resolve(t, b)
  if (node.kind === 'leaf' || node.kind === 'set') {
    if (node.kind === 'leaf' || !Array.isArray(a) || !Array.isArray(b)) set.insert(path)
    return
  }
  if (node.kind === 'struct' || node.kind === 'map') {
    if (!isObject(a) || !isObject(b)) return set.insert(path)
    for (const [k, bv] of Object.entries(b)) {
      if (bv === undefined || !Object.hasOwn(a, k) || a[k] === undefined) continue
      compare(childType(node, k), a[k], bv, [...path, fieldElement(k)], set)
    }
    return
  }
  if (!Array.isArray(a) || !Array.isArray(b)) return set.insert(path)
  const before = new Map(a.map((item) => [itemElement(node.keys, item), item] as const))
  for (const item of b) {
    const pe = itemElement(node.keys, item)
    if (before.has(pe)) compare(node.items, before.get(pe), item, [...path, pe], set)
  }
}
