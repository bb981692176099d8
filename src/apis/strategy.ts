/**
 * The generic strategy: what every write does to an object whatever its kind, with the kind's
 * own hooks (./kind-strategy.ts, found by strategyOf) and those of the subresource written.
 */
import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause } from '../apimachinery/field-errors'
import { formatTime } from '../apimachinery/meta-time'
import { apiVersionOf } from './registry'
import type { ResourceDef } from './resource-def'
import { applyDefaults, initialStatus } from './defaults'
import { strategyOf } from './kind-strategies'
import { subresourceOf } from './subresources'
import { validateFixedFields } from './validation/immutable-fields'
import type { Requester } from './certificates/csr-object'

export { nameSuffix } from '../apimachinery/generate-name'

/** Everything but metadata and status: a change here bumps metadata.generation. */
export function specOf(obj: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj
  return JSON.stringify(rest)
}

/** Sets the system-owned fields of a new object, its defaults, and what its kind prepares. */
export function prepareForCreate(
  def: ResourceDef,
  obj: KubeObject,
  nowMs: number,
  requester?: Requester,
): KubeObject {
  const meta = { ...obj.metadata }
  for (const f of [
    'uid',
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
  ] as const)
    delete meta[f]
  meta.uid = crypto.randomUUID()
  meta.creationTimestamp = formatTime(nowMs)
  if (def.generation) meta.generation = 1
  else delete meta.generation
  if (!def.namespaced) delete meta.namespace
  const out: KubeObject = { ...obj, apiVersion: apiVersionOf(def), kind: def.kind, metadata: meta }
  const status = initialStatus(def, obj)
  if (status === undefined) delete out.status
  else out.status = status
  applyDefaults(def, out)
  strategyOf(def).prepareForCreate?.(out, { nowMs, requester })
  return out
}

/**
 * Merges an incoming full object over the stored one: system fields stay, a main-resource write
 * keeps the stored status, and a write through a subresource changes what that subresource's
 * strategy says (a status write: only status).
 */
export function prepareForUpdate(
  def: ResourceDef,
  old: KubeObject,
  incoming: KubeObject,
  subresource?: string,
): KubeObject {
  const sub = subresource === undefined ? undefined : subresourceOf(def, subresource)
  if (sub?.prepareForUpdate) {
    const out = sub.prepareForUpdate(old, incoming)
    if (sub.defaulted) applyDefaults(def, out)
    return out
  }
  const meta = { ...incoming.metadata }
  for (const f of [
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'name',
    'namespace',
  ] as const) {
    if (old.metadata[f] === undefined) delete meta[f]
    else (meta as Record<string, unknown>)[f] = old.metadata[f]
  }
  if (meta.managedFields === undefined && old.metadata.managedFields !== undefined)
    meta.managedFields = old.metadata.managedFields
  const out: KubeObject = {
    ...incoming,
    apiVersion: apiVersionOf(def),
    kind: def.kind,
    metadata: meta,
  }
  if (def.subresources.includes('status')) {
    if (old.status === undefined) delete out.status
    else out.status = old.status
  }
  applyDefaults(def, out)
  if (def.generation && specOf(out) !== specOf(old))
    meta.generation = (Number(old.metadata.generation) || 1) + 1
  const own = strategyOf(def).prepareForUpdate
  return own ? own(old, out) : out
}

/** Create rules beyond the object's own validation (kube-apiserver's create-only checks we enforce). */
export function validateCreate(def: ResourceDef, obj: KubeObject): StatusCause[] {
  return (strategyOf(def).validateCreate?.(obj) ?? []).map(toStatusCause)
}

/** Update rules that depend on the stored object (kube-apiserver's ValidateUpdate checks we enforce). */
export function validateUpdate(
  def: ResourceDef,
  old: KubeObject,
  next: KubeObject,
  subresource?: string,
): StatusCause[] {
  const causes: StatusCause[] = []
  const sub = subresource === undefined ? undefined : subresourceOf(def, subresource)
  if (sub?.validateUpdate) causes.push(...sub.validateUpdate(old, next).map(toStatusCause))
  if (!subresource && !def.custom)
    causes.push(
      ...validateFixedFields(def.group, def.kind, decoded(def, old), next).map(toStatusCause),
    )
  if (old.metadata.deletionTimestamp) {
    const before = new Set(old.metadata.finalizers ?? [])
    const added = (next.metadata.finalizers ?? []).filter((f) => !before.has(f))
    if (added.length) {
      causes.push({
        field: 'metadata.finalizers',
        reason: 'FieldValueForbidden',
        message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
      })
    }
  }
  const own = strategyOf(def).validateUpdate
  if (own) causes.push(...own(old, next).map(toStatusCause))
  return causes
}

/** The stored object as kube-apiserver reads it back: with the defaults of today's version applied. */
function decoded(def: ResourceDef, stored: KubeObject): KubeObject {
  const copy = structuredClone(stored)
  applyDefaults(def, copy)
  return copy
}

/** The seconds a deletion waits: none, unless the kind deletes gracefully (a pod bound to a node). */
export function gracePeriodFor(
  def: ResourceDef,
  obj: KubeObject,
  requested: number | undefined,
): number {
  return strategyOf(def).gracePeriod?.(obj, requested) ?? 0
}

/** Finalizers that hold a deletion: metadata.finalizers, and those the kind adds (a Namespace's spec.finalizers). */
export function pendingFinalizers(def: ResourceDef, obj: KubeObject): string[] {
  const meta = obj.metadata.finalizers ?? []
  const own = strategyOf(def).finalizers
  return own ? [...meta, ...own(obj)] : meta
}
