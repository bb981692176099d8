import type { KubeObject, StatusCause } from '../apimachinery/types'
import { apiVersionOf, isCrd, rbacGroup, type ResourceDef } from './registry'
import { validateRbacUpdate } from './rbac/validate'
import { admitNewNamespace, admitNewPod, applyDefaults, initialStatus } from './defaults'
import { toStatusCause } from '../apimachinery/validation'
import { CLEANUP_FINALIZER, establishedStatus } from './crd/crd-object'
import { validateApiApproval, validateCrdUpdate } from './crd/validate-crd'
import { createRuleCauses, transitionRuleCauses } from './crd/cel-rule-eval'
import { formatTime } from '../apimachinery/meta-time'
import { keepPodPriority, validatePriorityClassUpdate } from './priority-class'
import { validateStorageUpdate } from './storage/validate'
import { isCsr, prepareCsrUpdate } from './certificates/csr-object'
import { validateCsrUpdate } from './certificates/csr-validation'
import { validateEphemeralOnCreate, validateEphemeralUpdate, withEphemeralContainers } from './validation/ephemeral'
import { validateFixedFields } from './validation/immutable-fields'
import { fillStatusZeroFields } from './status-zero-fields'
import type { ObjectSubresource } from './subresources'

const generateNameAlphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** generateName's suffix: five characters from the alphabet upstream uses (no vowels, no look-alikes). */
export function nameSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5))
  return [...bytes].map((b) => generateNameAlphabet[b % generateNameAlphabet.length]).join('')
}

/** Everything but metadata and status: a change here bumps metadata.generation. */
export function specOf(obj: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj
  return JSON.stringify(rest)
}

/** Sets the system-owned fields of a new object. */
export function prepareForCreate(def: ResourceDef, obj: KubeObject, nowMs: number): KubeObject {
  const meta = { ...obj.metadata }
  for (const f of ['uid', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const) delete meta[f]
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
  if (def.group === '' && def.kind === 'Pod') admitNewPod(out)
  if (def.group === '' && def.kind === 'Namespace') admitNewNamespace(out)
  if (isCrd(def)) {
    if (!(meta.finalizers ?? []).includes(CLEANUP_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), CLEANUP_FINALIZER]
    out.status = establishedStatus(out, formatTime(nowMs))
  }
  return out
}

/**
 * Merges an incoming full object over the stored one: system fields stay, a main-resource write
 * keeps the stored status and a status write changes only status, as with a status subresource.
 */
export function prepareForUpdate(def: ResourceDef, old: KubeObject, incoming: KubeObject, subresource?: ObjectSubresource): KubeObject {
  if (isCsr(def) && (subresource === 'status' || subresource === 'approval')) return prepareCsrUpdate(old, { ...old, status: incoming.status, metadata: { ...old.metadata } }, subresource)
  if (subresource === 'status') return fillStatusZeroFields(def, { ...old, status: incoming.status, metadata: { ...old.metadata } })
  if (subresource === 'ephemeralcontainers') {
    const out = withEphemeralContainers(old, incoming)
    applyDefaults(def, out)
    return out
  }
  const meta = { ...incoming.metadata }
  for (const f of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'name', 'namespace'] as const) {
    if (old.metadata[f] === undefined) delete meta[f]
    else (meta as Record<string, unknown>)[f] = old.metadata[f]
  }
  if (meta.managedFields === undefined && old.metadata.managedFields !== undefined) meta.managedFields = old.metadata.managedFields
  const out: KubeObject = { ...incoming, apiVersion: apiVersionOf(def), kind: def.kind, metadata: meta }
  if (def.subresources.includes('status')) {
    if (old.status === undefined) delete out.status
    else out.status = old.status
  }
  applyDefaults(def, out)
  if (def.group === '' && def.kind === 'Pod') keepPodPriority(old, out)
  if (def.generation && specOf(out) !== specOf(old)) meta.generation = (Number(old.metadata.generation) || 1) + 1
  if (isCrd(def)) out.status = establishedStatus(out, formatTime(Date.now()))
  if (isCsr(def)) return prepareCsrUpdate(old, out, undefined)
  return out
}

/** Create rules beyond the object's own validation (kube-apiserver's create-only checks we enforce). */
export function validateCreate(def: ResourceDef, obj: KubeObject): StatusCause[] {
  if (def.custom?.schema) return createRuleCauses(def.custom.schema, obj).map(toStatusCause)
  if (def.group === '' && def.kind === 'Pod') return validateEphemeralOnCreate(obj).map(toStatusCause)
  return isCrd(def) ? validateApiApproval(obj).map(toStatusCause) : []
}

/** Update rules that depend on the stored object (kube-apiserver's ValidateUpdate checks we enforce). */
export function validateUpdate(def: ResourceDef, old: KubeObject, next: KubeObject, subresource?: ObjectSubresource): StatusCause[] {
  const causes: StatusCause[] = []
  if (def.group === '' && def.kind === 'Pod' && subresource === 'ephemeralcontainers') causes.push(...validateEphemeralUpdate(old, next).map(toStatusCause))
  if (!subresource && !def.custom) causes.push(...validateFixedFields(def.group, def.kind, decoded(def, old), next).map(toStatusCause))
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
  if (isCrd(def)) causes.push(...validateCrdUpdate(old, next).map(toStatusCause))
  if (def.custom?.schema) causes.push(...transitionRuleCauses(def.custom.schema, old, next).map(toStatusCause))
  if (def.group === 'scheduling.k8s.io' && def.kind === 'PriorityClass') causes.push(...validatePriorityClassUpdate(old, next).map(toStatusCause))
  if (def.group === rbacGroup) causes.push(...validateRbacUpdate(def.kind, old, next).map(toStatusCause))
  causes.push(...validateStorageUpdate(def.group, def.kind, old, next).map(toStatusCause))
  if (isCsr(def)) causes.push(...validateCsrUpdate(old, next).map(toStatusCause))
  return causes
}

/** The stored object as kube-apiserver reads it back: with the defaults of today's version applied. */
function decoded(def: ResourceDef, stored: KubeObject): KubeObject {
  const copy = structuredClone(stored)
  applyDefaults(def, copy)
  return copy
}

/** True when the stored bytes would not change (then the write keeps its resourceVersion). */
export function unchanged(old: KubeObject, next: KubeObject): boolean {
  const strip = (o: KubeObject) => JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } })
  return strip(old) === strip(next)
}

/** Pods bound to a node are deleted gracefully: the node's agent finishes the deletion. */
export function gracePeriodFor(def: ResourceDef, obj: KubeObject, requested: number | undefined): number {
  if (def.group !== '' || def.kind !== 'Pod') return 0
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number }
  const phase = (obj.status as { phase?: string } | undefined)?.phase
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0
  const grace = requested ?? spec.terminationGracePeriodSeconds ?? 30
  return Math.max(0, grace)
}
