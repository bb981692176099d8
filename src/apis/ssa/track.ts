/**
 * Ownership recorded by writes that are not applies (create, update, non-apply patches): the
 * writer's Update entry gains the fields it added or changed, and every other manager loses the
 * fields it changed or removed, as kube-apiserver's updates take ownership without conflicts.
 */
import type { KubeObject } from '../../apimachinery/types'
import { apiVersionOf } from '../registry'
import type { ResourceDef } from '../resource-def'
import { FieldSet } from './fieldset'
import { decodeManaged, sameManager, withManaged } from './managed'
import { rootType } from './types'
import { trackedView, type Subresource } from './view'
import { asRecord, modifiedFields } from './walk'
import { formatTime } from '../../apimachinery/meta-time'

/** `obj` with its managedFields updated for a write by `manager` (unchanged when there is no manager or no change). */
export function recordUpdate(
  def: ResourceDef,
  old: KubeObject | undefined,
  obj: KubeObject,
  manager: string | undefined,
  subresource: Subresource,
  nowMs: number,
): KubeObject {
  if (!manager) return obj
  const root = rootType(def)
  const before = old ? trackedView(def, old, subresource) : {}
  const after = trackedView(def, obj, subresource)
  const beforeSet = asRecord(root, before)
  const afterSet = asRecord(root, after)
  const modified = modifiedFields(root, before, after)
  const changed = afterSet.difference(beforeSet).union(modified)
  const removed = beforeSet.difference(afterSet)
  if (changed.empty() && removed.empty()) return obj

  const id = { manager, operation: 'Update' as const, subresource }
  const managed = decodeManaged(obj)
  const mine = managed.find((m) => sameManager(m.entry, id))
  const rest = managed
    .filter((m) => m !== mine)
    .map((m) => ({ entry: m.entry, set: m.set.difference(modified).difference(removed) }))
  const set = (mine?.set ?? new FieldSet()).union(changed).difference(removed)
  const entry = {
    manager,
    operation: 'Update' as const,
    apiVersion: apiVersionOf(def),
    time: formatTime(nowMs),
    fieldsType: 'FieldsV1' as const,
    fieldsV1: {},
    ...(subresource ? { subresource } : {}),
  }
  return withManaged(obj, [...rest, { entry, set }])
}
