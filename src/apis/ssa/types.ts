/**
 * How server-side apply sees a value: the schema node that governs it. Values the schema does not
 * describe are "deduced" as upstream does for unstructured data: objects are granular maps, lists
 * and scalars are atomic.
 */
import { kindStruct, schemas } from '../schema'
import type { FieldType, StructDef } from '../../apimachinery/schema-types'
import type { ResourceDef } from '../resource-def'
import { keyElement, valueElement, type PathElement } from './fieldset'

export type Node =
  | { kind: 'leaf' }
  | { kind: 'struct'; struct: StructDef }
  | { kind: 'map'; values: FieldType | undefined }
  | { kind: 'set' }
  | { kind: 'mapList'; items: FieldType; keys: readonly string[] }

/** Structs upstream marks `+structType=atomic`: they are owned and replaced as a whole. */
const atomicStructs = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'])

/** Key fields upstream fills from their schema defaults when an item leaves them out. */
const keyDefaults: Record<string, unknown> = { protocol: 'TCP' }

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** The type of a kind's top-level object; undefined (deduced) for kinds without a schema. */
export function rootType(def: ResourceDef): FieldType | undefined {
  const struct = kindStruct(def.group, def.version, def.kind)
  return struct ? { kind: 'ref', ref: struct } : undefined
}

export function resolve(t: FieldType | undefined, value: unknown): Node {
  if (t === undefined || (t.kind === 'scalar' && t.scalar === 'any'))
    return isObject(value) ? { kind: 'map', values: undefined } : { kind: 'leaf' }
  if (t.kind === 'scalar') return { kind: 'leaf' }
  if (t.kind === 'map') return { kind: 'map', values: t.values }
  if (t.kind === 'ref') {
    const struct = Object.hasOwn(schemas, t.ref) ? schemas[t.ref] : undefined
    if (!struct) return isObject(value) ? { kind: 'map', values: undefined } : { kind: 'leaf' }
    if (atomicStructs.has(t.ref)) return { kind: 'leaf' }
    return { kind: 'struct', struct }
  }
  if (t.listType === 'set') return { kind: 'set' }
  if (t.listType === 'map') {
    const keys = t.listMapKeys ?? (t.patchMergeKey ? [t.patchMergeKey] : [])
    if (keys.length) return { kind: 'mapList', items: t.items, keys }
  }
  return { kind: 'leaf' }
}

/** The type of a struct field or map value; undefined when the schema does not declare it. */
export function childType(node: Node, key: string): FieldType | undefined {
  if (node.kind === 'struct')
    return Object.hasOwn(node.struct.fields, key) ? node.struct.fields[key]!.type : undefined
  if (node.kind === 'map') return node.values
  return undefined
}

/** True when a struct declares the field (undeclared fields are owned as a whole, as map entries). */
export const declared = (node: Node, key: string): boolean =>
  node.kind === 'struct' && Object.hasOwn(node.struct.fields, key)

/** The element naming a list-map item: its key fields, defaulted where upstream defaults them. */
export function itemElement(keys: readonly string[], item: unknown): PathElement {
  const key: Record<string, unknown> = {}
  const obj = isObject(item) ? item : {}
  for (const k of keys) {
    const v = obj[k] ?? keyDefaults[k]
    if (v !== undefined) key[k] = v
  }
  return keyElement(key)
}

export const setElement = valueElement

export const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || JSON.stringify(a) === JSON.stringify(b)
