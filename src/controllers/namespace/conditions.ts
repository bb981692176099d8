import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

export interface NamespaceCondition {
  type: string
  status: 'True' | 'False'
  lastTransitionTime?: string
  reason: string
  message: string
}

/** The condition types the namespace controller owns, in upstream's order, with their all-clear reason and message. */
const allClear: [type: string, reason: string, message: string][] = [
  [
    'NamespaceDeletionDiscoveryFailure',
    'ResourcesDiscovered',
    'All resources successfully discovered',
  ],
  [
    'NamespaceDeletionGroupVersionParsingFailure',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  [
    'NamespaceFinalizersRemaining',
    'ContentHasNoFinalizers',
    'All content-preserving finalizers finished',
  ],
]

/** What one kind still holds in a namespace being emptied (`pods.` as upstream spells `resource.group`). */
export interface ContentCount {
  resource: string
  count: number
  finalizers: Record<string, number>
}

/**
 * The conditions describing what still holds a terminating namespace: remaining objects counted
 * per resource (`pods. has 2 resource instances`, upstream's `resource.group` spelling) and per
 * finalizer. Discovery, parsing and delete failures cannot happen here (every kind is known, and
 * a failed delete is retried by the runner), so those three always read as all clear.
 */
export function deletionConditions(remaining: readonly ContentCount[]): NamespaceCondition[] {
  const byResource = new Map<string, number>()
  const byFinalizer = new Map<string, number>()
  for (const { resource, count, finalizers } of remaining) {
    if (count) byResource.set(resource, (byResource.get(resource) ?? 0) + count)
    for (const [f, n] of Object.entries(finalizers))
      byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + n)
  }
  const problems = new Map<string, NamespaceCondition>()
  if (byResource.size) {
    const parts = [...byResource].map(([r, n]) => `${r} has ${n} resource instances`).sort()
    problems.set('NamespaceContentRemaining', {
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${parts.join(', ')}`,
    })
  }
  if (byFinalizer.size) {
    const parts = [...byFinalizer].map(([f, n]) => `${f} in ${n} resource instances`).sort()
    problems.set('NamespaceFinalizersRemaining', {
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`,
    })
  }
  return allClear.map(
    ([type, reason, message]) => problems.get(type) ?? { type, status: 'False', reason, message },
  )
}

/**
 * The namespace's status with `wanted` merged into its conditions as upstream does: a condition
 * keeps its lastTransitionTime unless its status flips; conditions of other types are kept.
 * Returns undefined when nothing would change.
 */
export function withConditions(
  ns: KubeObject,
  wanted: readonly NamespaceCondition[],
  now: number,
): Json | undefined {
  const status = asRecord(ns.status)
  const current = Array.isArray(status.conditions) ? (status.conditions as Json[]) : []
  const next: Json[] = current.map((c) => ({ ...c }))
  let changed = status.phase !== 'Terminating'
  for (const w of wanted) {
    const existing = next.find((c) => c.type === w.type)
    if (!existing) {
      next.push({ ...w, lastTransitionTime: formatTime(now) })
      changed = true
    } else if (
      existing.status !== w.status ||
      existing.reason !== w.reason ||
      existing.message !== w.message
    ) {
      if (existing.status !== w.status) existing.lastTransitionTime = formatTime(now)
      Object.assign(existing, { status: w.status, reason: w.reason, message: w.message })
      changed = true
    }
  }
  return changed ? { ...status, phase: 'Terminating', conditions: next } : undefined
}
