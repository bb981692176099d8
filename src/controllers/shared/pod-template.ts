import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import type { PodTemplate } from './workloads'
import { isJsonObject, stableStringify, type Json } from '../../apimachinery/json-value'

/** The label a Deployment adds to its ReplicaSets, their selectors and pods (DefaultDeploymentUniqueLabelKey). */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash'

/**
 * Fields of a PodTemplateSpec that are Go maps or non-pointer structs: upstream's semantic equality
 * (and its hash of the decoded struct) cannot tell an empty one from a missing one. kubectl writes
 * such empties back when it round-trips a template, e.g. `rollout undo` sends
 * `"metadata":{"creationTimestamp":null}` and `"resources":{}`, and that must still match the
 * ReplicaSet it came from. Other empty objects (say `emptyDir: {}`) are pointers upstream and
 * meaningful, so they are kept.
 */
const emptyMeansUnset = new Set([
  'metadata',
  'spec',
  'labels',
  'annotations',
  'nodeSelector',
  'resources',
  'limits',
  'requests',
  'overhead',
])

function canonical(v: unknown, key?: string): unknown {
  if (Array.isArray(v)) return v.length ? v.map((x) => canonical(x)) : undefined
  if (!isJsonObject(v)) return v === null ? undefined : v
  const out: Json = {}
  for (const k of Object.keys(v).sort()) {
    const c = canonical(v[k], k)
    if (c !== undefined) out[k] = c
  }
  return Object.keys(out).length === 0 && key !== undefined && emptyMeansUnset.has(key)
    ? undefined
    : out
}

/** A template reduced to what upstream's semantic equality compares: no nulls, no empty lists, no empty maps. */
export function canonicalTemplate(template: PodTemplate | undefined): Json {
  return (canonical(template ?? {}) as Json | undefined) ?? {}
}

function withoutHashLabel(template: PodTemplate | undefined): PodTemplate {
  const t = structuredClone(template ?? {})
  if (t.metadata?.labels) {
    const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...rest } = t.metadata.labels
    t.metadata.labels = rest
  }
  return t
}

/** deploymentutil.EqualIgnoreHash: the templates are semantically equal once the pod-template-hash label is ignored. */
export function equalIgnoreHash(a: PodTemplate | undefined, b: PodTemplate | undefined): boolean {
  return (
    stableStringify(canonicalTemplate(withoutHashLabel(a))) ===
    stableStringify(canonicalTemplate(withoutHashLabel(b)))
  )
}

/** FNV-1a, 32 bits, over the given bytes (hash/fnv's New32a). */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0
  return h
}

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** rand.SafeEncodeString: each byte mapped into an alphabet without vowels or look-alike characters. */
export function safeEncodeString(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length]
  return out
}

/**
 * controller.ComputeHash: FNV-32a of the template, then of the collision count (eight bytes, the
 * count little-endian in the first four, as upstream writes it) when one is set, printed in decimal
 * and safe-encoded. The template is hashed in its canonical JSON form (sorted keys, unset fields
 * dropped), so the same template always gets the same name, whatever the key order or empties.
 */
export function computeHash(template: PodTemplate | undefined, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(stableStringify(canonicalTemplate(template))))
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true)
    h = fnv32a(bytes, h)
  }
  return safeEncodeString(String(h))
}

/**
 * controller.GetPodFromTemplate: a pod from a template, named by the store from the owner's name
 * plus a dash (`generateName`), with the template's labels, annotations and finalizers, and the
 * owner's controller reference.
 */
export function podFromTemplate(
  template: PodTemplate | undefined,
  owner: KubeObject,
  controllerRef: OwnerReference,
): KubeObject {
  const meta = template?.metadata ?? {}
  const metadata: KubeObject['metadata'] = {
    generateName: `${owner.metadata.name ?? ''}-`,
    namespace: owner.metadata.namespace,
    ownerReferences: [controllerRef],
  }
  if (meta.labels) metadata.labels = { ...meta.labels }
  if (meta.annotations) metadata.annotations = { ...meta.annotations }
  if (meta.finalizers?.length) metadata.finalizers = [...meta.finalizers]
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template?.spec ?? {}) }
}
