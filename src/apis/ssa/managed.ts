/** metadata.managedFields: decoding entries into field sets and encoding them back in upstream's order. */
import type { KubeObject } from '../../apimachinery/types'
import { FieldSet, type FieldsV1 } from './fieldset'

export type Operation = 'Apply' | 'Update'

export interface ManagedFieldsEntry {
  manager: string
  operation: Operation
  apiVersion: string
  time?: string
  fieldsType: 'FieldsV1'
  fieldsV1: FieldsV1
  subresource?: string
}

/** One manager's entry and its decoded field set. */
export interface Managed {
  entry: ManagedFieldsEntry
  set: FieldSet
}

/** A manager is told apart by name, operation and subresource (upstream's manager identifier, minus the version we serve one of). */
export const sameManager = (
  a: ManagedFieldsEntry,
  b: Pick<ManagedFieldsEntry, 'manager' | 'operation' | 'subresource'>,
): boolean =>
  a.manager === b.manager &&
  a.operation === b.operation &&
  (a.subresource ?? '') === (b.subresource ?? '')

export function decodeManaged(obj: KubeObject): Managed[] {
  const raw = obj.metadata?.managedFields
  if (!Array.isArray(raw)) return []
  const out: Managed[] = []
  for (const e of raw) {
    if (!e || typeof e !== 'object') continue
    const entry = e as ManagedFieldsEntry
    if (
      typeof entry.manager !== 'string' ||
      (entry.operation !== 'Apply' && entry.operation !== 'Update')
    )
      continue
    out.push({ entry, set: FieldSet.fromFieldsV1(entry.fieldsV1) })
  }
  return out
}

/** Entries with a non-empty set, ordered as upstream: by operation, then time, then manager. */
export function encodeManaged(managed: Managed[]): ManagedFieldsEntry[] {
  return managed
    .filter((m) => !m.set.empty())
    .map((m) => {
      // Upstream's field order, so that stored bytes stay stable across writes.
      const e: Partial<ManagedFieldsEntry> = {
        manager: m.entry.manager,
        operation: m.entry.operation,
        apiVersion: m.entry.apiVersion,
      }
      if (m.entry.time !== undefined) e.time = m.entry.time
      e.fieldsType = 'FieldsV1'
      e.fieldsV1 = m.set.toFieldsV1()
      if (m.entry.subresource) e.subresource = m.entry.subresource
      return e as ManagedFieldsEntry
    })
    .sort((p, q) => {
      if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1
      const pt = p.time ?? ''
      const qt = q.time ?? ''
      if (pt !== qt) return pt < qt ? -1 : 1
      if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1
      return p.apiVersion < q.apiVersion ? -1 : p.apiVersion > q.apiVersion ? 1 : 0
    })
}

/** Sets the entries on a copy of the metadata (empty lists are dropped, as upstream). */
export function withManaged(obj: KubeObject, managed: Managed[]): KubeObject {
  const entries = encodeManaged(managed)
  const metadata = { ...obj.metadata }
  if (entries.length) metadata.managedFields = entries
  else delete metadata.managedFields
  return { ...obj, metadata }
}
