/** Merging an applied configuration into a live value, and removing fields, with the schema's list semantics. */
import type { FieldType } from '../../apimachinery/schema-types'
import { fieldElement, type FieldSet } from './fieldset'
import { childType, isObject, itemElement, resolve, setElement } from './types'

/**
 * The live value with the configuration applied: maps and structs merge by key, `map` lists merge
 * their items by key, `set` lists take the union, scalars and atomic values are replaced. Unchanged
 * subtrees keep their identity, so an apply that changes nothing yields an equal object.
 */
export function mergeApplied(t: FieldType | undefined, live: unknown, config: unknown): unknown {
  if (config === undefined) return live
  const node = resolve(t, config)
  if (node.kind === 'leaf') return config
  if (node.kind === 'struct' || node.kind === 'map') {
    if (!isObject(live) || !isObject(config)) return config
    const out: Record<string, unknown> = { ...live }
    for (const [k, cv] of Object.entries(config)) {
      // A null in an applied configuration asks for the field to be absent.
      if (cv === null) delete out[k]
      else out[k] = mergeApplied(childType(node, k), live[k], cv)
    }
    return out
  }
  if (!Array.isArray(live) || !Array.isArray(config)) return config
  if (node.kind === 'set') {
    // Values are compared as their JSON, through one set, so a long list merges in linear time.
    const out = [...live]
    const seen = new Set(live.map(setElement))
    for (const v of config) {
      const element = setElement(v)
      if (seen.has(element)) continue
      seen.add(element)
      out.push(v)
    }
    return out
  }
  const out = [...live]
  const index = new Map(live.map((item, i) => [itemElement(node.keys, item), i] as const))
  for (const item of config) {
    const i = index.get(itemElement(node.keys, item))
    if (i === undefined) out.push(item)
    else out[i] = mergeApplied(node.items, out[i], item)
  }
  return out
}

/** The value without the fields of the set (a member removes the whole subtree under it). */
export function removeFields(t: FieldType | undefined, value: unknown, set: FieldSet): unknown {
  if (set.empty()) return value
  const node = resolve(t, value)
  if (node.kind === 'struct' || node.kind === 'map') {
    if (!isObject(value)) return value
    const out: Record<string, unknown> = { ...value }
    for (const k of Object.keys(value)) {
      const pe = fieldElement(k)
      const below = set.children.get(pe)
      if (set.members.has(pe)) delete out[k]
      else if (below) out[k] = removeFields(childType(node, k), value[k], below)
    }
    return out
  }
  if (!Array.isArray(value)) return value
  if (node.kind === 'set') return value.filter((v) => !set.members.has(setElement(v)))
  if (node.kind !== 'mapList') return value
  const out: unknown[] = []
  for (const item of value) {
    const pe = itemElement(node.keys, item)
    if (set.members.has(pe)) continue
    const below = set.children.get(pe)
    out.push(below ? removeFields(node.items, item, below) : item)
  }
  return out
}
