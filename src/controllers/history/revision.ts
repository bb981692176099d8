import type { KubeObject } from '../../apimachinery/types'
import { canonicalTemplate } from '../shared/pod-template'
import { newControllerRef } from '../../apimachinery/owner-refs'
import type { PodTemplate } from '../shared/workloads'
import { hashControllerRevision } from './hash'
import { asRecord, intOr, isJsonObject, stableStringify } from '../../apimachinery/json-value'

/** The label history.NewControllerRevision puts on every revision (ControllerRevisionHashLabel). */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash'

/** The apps/v1 ControllerRevision fields the controllers read: data and the revision number. */
export interface ControllerRevision extends KubeObject {
  data?: unknown
  revision?: number
}

export function revisionNumber(r: KubeObject): number {
  return intOr((r as ControllerRevision).revision, 0)
}

/**
 * The data both StatefulSets and DaemonSets store (their getPatch): a strategic merge patch that
 * replaces spec.template wholesale, which is what `kubectl rollout undo` sends back.
 */
export function templatePatch(template: PodTemplate | undefined): unknown {
  return { spec: { template: { ...structuredClone(template ?? {}), $patch: 'replace' } } }
}

/** The template a revision's data carries (ApplyRevision of a template patch), without the patch directive. */
export function templateOf(revision: KubeObject): PodTemplate {
  const { $patch: _directive, ...template } = asRecord(
    asRecord(asRecord((revision as ControllerRevision).data).spec).template,
  )
  return structuredClone(template) as PodTemplate
}

/** The data reduced to what semantic equality compares, so empties and key order never tell revisions apart. */
function canonicalData(data: unknown): string {
  const template = asRecord(asRecord(asRecord(data).spec).template)
  const { $patch: directive, ...rest } = template
  return stableStringify({
    directive,
    template: canonicalTemplate(rest as PodTemplate),
    other: isJsonObject(data) ? Object.keys(data).sort() : [],
  })
}

/**
 * history.EqualRevision: the revisions carry the same data. Upstream also compares the hash labels,
 * but those are safe-encoded strings its integer parse never reads, so only the data counts.
 */
export function equalRevision(a: KubeObject, b: KubeObject): boolean {
  return (
    canonicalData((a as ControllerRevision).data) === canonicalData((b as ControllerRevision).data)
  )
}

/** history.ControllerRevisionName: the owner's name (cut to 223 characters) and the hash. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`
}

/** history.SortControllerRevisions: by revision number, then creation time, then name. */
export function sortRevisions(revisions: readonly KubeObject[]): KubeObject[] {
  return [...revisions].sort((a, b) => {
    const d = revisionNumber(a) - revisionNumber(b)
    if (d !== 0) return d
    const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '']
    if (ta !== tb) return ta < tb ? -1 : 1
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
  })
}

/** nextRevision: one past the highest revision number of the (sorted) history, 1 for none. */
export function nextRevision(sorted: readonly KubeObject[]): number {
  return sorted.length ? revisionNumber(sorted[sorted.length - 1]!) + 1 : 1
}

export interface RevisionOwner {
  owner: KubeObject
  apiVersion: string
  kind: string
  templateLabels?: Record<string, string>
  /** extra labels, e.g. a DaemonSet's controller-revision-hash */
  labels?: (hash: string) => Record<string, string>
}

/**
 * history.NewControllerRevision: labelled with the template's labels (so the owner's selector, which
 * kubectl lists them by, matches), annotated as the owner is, controlled by it, and named after it
 * and the hash of its data with the collision count.
 */
export function newControllerRevision(
  o: RevisionOwner,
  data: unknown,
  revision: number,
  collisionCount: number | undefined,
): ControllerRevision {
  const hash = hashControllerRevision(data, collisionCount)
  const labels = {
    ...(o.templateLabels ?? {}),
    ...(o.labels?.(hash) ?? {}),
    [CONTROLLER_REVISION_HASH_LABEL]: hash,
  }
  const metadata: KubeObject['metadata'] = {
    name: controllerRevisionName(o.owner.metadata.name ?? '', hash),
    namespace: o.owner.metadata.namespace,
    labels,
    ownerReferences: [newControllerRef(o.owner, o.apiVersion, o.kind)],
  }
  if (o.owner.metadata.annotations && Object.keys(o.owner.metadata.annotations).length)
    metadata.annotations = { ...o.owner.metadata.annotations }
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data, revision }
}
