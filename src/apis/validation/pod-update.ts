/**
 * ValidatePodUpdate (pkg/apis/core/validation, kube-apiserver v1.32): what a write to the pod
 * itself may change of its spec. Only the images of its containers and init containers, a
 * shorter (or a first) activeDeadlineSeconds, added tolerations (and any tolerationSeconds),
 * removed scheduling gates, terminationGracePeriodSeconds from negative to 1, and, while the pod
 * is still gated, added node selector labels and added node affinity requirements. Anything
 * else is one `spec: Forbidden` listing what changed. Ephemeral containers, binding and status
 * have their own subresources and are not checked here.
 */
import type { KubeObject } from '../../apimachinery/types'
import { forbidden, invalid, required, type FieldCause } from '../../apimachinery/field-errors'
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'
import { describeDiff, semanticEqual } from './semantic'

const maxInt32 = 2 ** 31 - 1
const mirrorAnnotation = 'kubernetes.io/config.mirror'
const appArmorPrefix = 'container.apparmor.security.beta.kubernetes.io/'

/** The fields upstream names as updatable, in its words and order. */
export const podUpdateMessage =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'

/** ValidateContainerUpdates: same count of containers, each with a usable image. */
function containerUpdates(
  next: Json[],
  old: Json[],
  path: string,
): { causes: FieldCause[]; stop: boolean } {
  if (next.length !== old.length)
    return { causes: [forbidden(path, 'pod updates may not add or remove containers')], stop: true }
  const causes: FieldCause[] = []
  next.forEach((c, i) => {
    const image = typeof c.image === 'string' ? c.image : ''
    if (!image) causes.push(required(`${path}[${i}].image`))
    if (image.trim().length !== image.length)
      causes.push(
        invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'),
      )
  })
  return { causes, stop: false }
}

/** ValidatePodSpecificAnnotationUpdates: the mirror pod and AppArmor annotations are fixed. */
function annotationUpdates(next: KubeObject, old: KubeObject): FieldCause[] {
  const now = next.metadata.annotations ?? {}
  const prior = old.metadata.annotations ?? {}
  const causes: FieldCause[] = []
  const path = (k: string) => `metadata.annotations[${k}]`
  for (const [k, v] of Object.entries(prior)) {
    if (now[k] === v) continue
    if (k.startsWith(appArmorPrefix))
      causes.push(forbidden(path(k), 'may not remove or update AppArmor annotations'))
    if (k === mirrorAnnotation)
      causes.push(forbidden(path(k), 'may not remove or update mirror pod annotation'))
  }
  for (const k of Object.keys(now)) {
    if (k in prior) continue
    if (k.startsWith(appArmorPrefix))
      causes.push(forbidden(path(k), 'may not add AppArmor annotations'))
    if (k === mirrorAnnotation) causes.push(forbidden(path(k), 'may not add mirror pod annotation'))
  }
  return causes
}

/** Two updates of spec.activeDeadlineSeconds are allowed: from unset to a value, and to a lower one. */
function deadlineUpdate(next: unknown, old: unknown): { causes: FieldCause[]; stop: boolean } {
  const path = 'spec.activeDeadlineSeconds'
  if (typeof next === 'number') {
    if (next < 0 || next > maxInt32)
      return {
        causes: [invalid(path, next, `must be between 0 and ${maxInt32}, inclusive`)],
        stop: true,
      }
    if (typeof old === 'number' && old < next)
      return {
        causes: [invalid(path, next, 'must be less than or equal to previous value')],
        stop: true,
      }
    return { causes: [], stop: false }
  }
  if (typeof old === 'number')
    return {
      causes: [invalid(path, null, 'must not update from a positive integer to nil value')],
      stop: false,
    }
  return { causes: [], stop: false }
}

/** validateOnlyAddedTolerations: every toleration stays, its tolerationSeconds aside. */
function onlyAddedTolerations(next: Json[], old: Json[]): FieldCause[] {
  const sansSeconds = (t: Json) => ({ ...t, tolerationSeconds: undefined })
  for (const before of old) {
    if (!next.some((t) => semanticEqual(sansSeconds(before), sansSeconds(t)))) {
      return [
        forbidden(
          'spec.tolerations',
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      ]
    }
  }
  return []
}

/** validateOnlyDeletedSchedulingGates: a gate may be removed, never added. */
function onlyDeletedGates(next: Json[], old: Json[]): FieldCause[] {
  const had = new Set(old.map((g) => g.name))
  return next.flatMap((g, i) =>
    had.has(g.name)
      ? []
      : [
          forbidden(
            `spec.schedulingGates[${i}].name`,
            `only deletion is allowed, but found new scheduling gate '${String(g.name ?? '')}'`,
          ),
        ],
  )
}

/** validateNodeSelectorMutation: while gated, labels may be added to spec.nodeSelector, none changed or removed. */
function nodeSelectorMutation(next: unknown, old: unknown): FieldCause[] {
  const after = asRecord(next)
  for (const [k, v] of Object.entries(asRecord(old))) {
    if (after[k] !== v)
      return [
        invalid(
          'spec.nodeSelector',
          next ?? null,
          'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
        ),
      ]
  }
  return []
}

const termsOf = (nodeAffinity: unknown) =>
  objectsOf(
    asRecord(asRecord(nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution)
      .nodeSelectorTerms,
  )

/** Each old term's expressions and fields kept, in order, with any added after them. */
function onlyAdditions(next: Json, old: Json): boolean {
  return ['matchExpressions', 'matchFields'].every((f) => {
    const before = objectsOf(old[f])
    const after = objectsOf(next[f])
    return before.length <= after.length && before.every((r, i) => semanticEqual(r, after[i]))
  })
}

/** validateNodeAffinityMutation: while gated, requirements may be added to the required terms. */
function nodeAffinityMutation(next: unknown, old: unknown): FieldCause[] {
  const before = termsOf(old)
  if (!before.length) return []
  const after = termsOf(next)
  const path =
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms'
  if (before.length !== after.length)
    return [
      invalid(
        path,
        after,
        'no additions/deletions to non-empty NodeSelectorTerms list are allowed',
      ),
    ]
  return before.flatMap((t, i) =>
    onlyAdditions(after[i]!, t)
      ? []
      : [
          invalid(
            `${path}[${i}]`,
            after[i],
            'only additions are allowed (no mutations or deletions)',
          ),
        ],
  )
}

/** The new spec with what may change taken from the old one, as upstream munges it before comparing. */
function munge(next: Json, old: Json, causes: FieldCause[]): Json {
  const munged: Json = { ...next }
  const withOldImages = (list: unknown, before: unknown) => {
    const prior = objectsOf(before)
    return Array.isArray(list)
      ? list.map((c, i) => ({ ...asRecord(c), image: prior[i]?.image }))
      : list
  }
  munged.containers = withOldImages(next.containers, old.containers)
  munged.initContainers = withOldImages(next.initContainers, old.initContainers)
  munged.activeDeadlineSeconds = old.activeDeadlineSeconds
  munged.schedulingGates = old.schedulingGates
  munged.tolerations = old.tolerations
  const grace = (v: unknown) => (typeof v === 'number' ? v : undefined)
  if (
    (grace(old.terminationGracePeriodSeconds) ?? 0) < 0 &&
    grace(next.terminationGracePeriodSeconds) === 1
  )
    munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds
  if (objectsOf(old.schedulingGates).length) {
    if (!semanticEqual(munged.nodeSelector, old.nodeSelector)) {
      causes.push(...nodeSelectorMutation(munged.nodeSelector, old.nodeSelector))
      munged.nodeSelector = old.nodeSelector
    }
    const before = asRecord(old.affinity).nodeAffinity
    const after = asRecord(munged.affinity).nodeAffinity
    if (!semanticEqual(before, after)) {
      causes.push(...nodeAffinityMutation(after, before))
      munged.affinity = { ...asRecord(munged.affinity), nodeAffinity: before }
    }
  }
  return munged
}

/** The causes refusing a main-resource update of a pod (metadata and spec rules), in upstream's order. */
export function validatePodUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const causes = annotationUpdates(next, old)
  const before = asRecord(old.spec)
  const after = asRecord(next.spec)
  for (const field of ['containers', 'initContainers'] as const) {
    const checked = containerUpdates(
      objectsOf(after[field]),
      objectsOf(before[field]),
      `spec.${field}`,
    )
    causes.push(...checked.causes)
    if (checked.stop) return causes
  }
  const deadline = deadlineUpdate(after.activeDeadlineSeconds, before.activeDeadlineSeconds)
  causes.push(...deadline.causes)
  if (deadline.stop) return causes
  causes.push(...onlyAddedTolerations(objectsOf(after.tolerations), objectsOf(before.tolerations)))
  causes.push(
    ...onlyDeletedGates(objectsOf(after.schedulingGates), objectsOf(before.schedulingGates)),
  )
  if (semanticEqual(after, before)) return causes
  const munged = munge(after, before, causes)
  if (!semanticEqual(munged, before))
    causes.push(
      forbidden('spec', `${podUpdateMessage}\n${describeDiff('core.PodSpec', before, munged)}`),
    )
  return causes
}
