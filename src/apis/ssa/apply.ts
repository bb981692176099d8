/**
 * Server-side apply: merges an applied configuration into the live object, settles field
 * ownership between managers (conflicts, forced takeover, removal of fields the applier dropped),
 * and builds the object an apply creates when none exists.
 */
import type { KubeObject } from '../../apimachinery/types'
import { badRequest, type StoreResult } from '../../apimachinery/status'
import { apiVersionOf } from '../registry'
import type { ResourceDef } from '../resource-def'
import { typeErrorStatus } from '../write-checks'
import { conflictStatus, type Conflict } from './conflict'
import { FieldSet } from './fieldset'
import { decodeManaged, sameManager, withManaged, type Managed } from './managed'
import { mergeApplied, removeFields } from './merge'
import { isObject, rootType } from './types'
import { trackedView, type Subresource } from './view'
import { asRecord, modifiedFields } from './walk'
import { formatTime } from '../../apimachinery/meta-time'

export interface ApplyOptions {
  manager: string
  force: boolean
  subresource: Subresource
  nowMs: number
}

/** The applied configuration, checked against the resource of the URL. */
export function checkConfig(
  def: ResourceDef,
  name: string,
  config: unknown,
): StoreResult<KubeObject> {
  if (!isObject(config))
    return { ok: false, status: badRequest('the body of the request must be a JSON object') }
  const want = apiVersionOf(def)
  if (config.apiVersion !== undefined && config.apiVersion !== want) {
    return {
      ok: false,
      status: badRequest(
        `the API version in the data (${String(config.apiVersion)}) does not match the expected API version (${want})`,
      ),
    }
  }
  if (config.kind !== undefined && config.kind !== def.kind) {
    return {
      ok: false,
      status: badRequest(
        `the kind in the data (${String(config.kind)}) does not match the expected kind (${def.kind})`,
      ),
    }
  }
  // As upstream, the configuration is typed before anything is merged or any conflict is found.
  const typeError = typeErrorStatus(def, config)
  if (typeError) return { ok: false, status: typeError }
  const meta = isObject(config.metadata) ? config.metadata : {}
  if (meta.name !== undefined && meta.name !== name) {
    return {
      ok: false,
      status: badRequest(
        `the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`,
      ),
    }
  }
  return { ok: true, value: { ...config, metadata: { ...meta } } as KubeObject }
}

const applyEntry = (def: ResourceDef, o: ApplyOptions, time: string) => ({
  manager: o.manager,
  operation: 'Apply' as const,
  apiVersion: apiVersionOf(def),
  time,
  fieldsType: 'FieldsV1' as const,
  fieldsV1: {},
  ...(o.subresource ? { subresource: o.subresource } : {}),
})

/** The object an apply creates: the configuration, owned entirely by the applier. */
export function objectToCreate(def: ResourceDef, config: KubeObject, o: ApplyOptions): KubeObject {
  const set = asRecord(rootType(def), trackedView(def, config, o.subresource))
  const meta = { ...config.metadata }
  delete meta.managedFields
  return withManaged({ ...config, metadata: meta }, [
    { entry: applyEntry(def, o, formatTime(o.nowMs)), set },
  ])
}

/** The live object with the configuration applied, or 409 when it would change fields other managers own. */
export function applyToLive(
  def: ResourceDef,
  live: KubeObject,
  config: KubeObject,
  o: ApplyOptions,
): StoreResult<KubeObject> {
  const root = rootType(def)
  const applied = trackedView(def, config, o.subresource)
  const configSet = asRecord(root, applied)
  let merged = mergeApplied(root, live, applied) as KubeObject
  const changed = modifiedFields(
    root,
    trackedView(def, live, o.subresource),
    trackedView(def, merged, o.subresource),
  )

  const id = { manager: o.manager, operation: 'Apply' as const, subresource: o.subresource }
  const managed = decodeManaged(live)
  const mine = managed.find((m) => sameManager(m.entry, id))
  const others = managed.filter((m) => m !== mine)
  const conflicts: Conflict[] = []
  for (const m of others)
    for (const path of m.set.intersection(changed).paths()) conflicts.push({ entry: m.entry, path })
  if (conflicts.length && !o.force) return { ok: false, status: conflictStatus(conflicts) }
  // A forced apply takes the contested fields over.
  const rest: Managed[] = others.map((m) => ({
    entry: m.entry,
    set: o.force ? m.set.difference(changed) : m.set,
  }))

  // Fields this applier set before and no longer applies go away, unless someone else still owns them.
  const othersOwn = rest.reduce((acc, m) => acc.union(m.set), new FieldSet())
  const dropped = (mine?.set ?? new FieldSet()).difference(configSet)
  const toRemove = FieldSet.of(dropped.paths().filter((p) => !othersOwn.touches(p)))
  merged = removeFields(root, merged, toRemove) as KubeObject

  // The entry keeps its time while its set is unchanged, so a repeated apply changes nothing.
  const time =
    mine?.entry.time !== undefined && mine.set.equals(configSet)
      ? mine.entry.time
      : formatTime(o.nowMs)
  return {
    ok: true,
    value: withManaged(merged, [...rest, { entry: applyEntry(def, o, time), set: configSet }]),
  }
}
