import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome, ResourceRef } from '../runtime/types'
import { deletionConditions, withConditions, type Remaining } from './conditions'
import { namespaces } from './resources'

/** The token this controller owns in a namespace's spec.finalizers. */
export const KUBERNETES_FINALIZER = 'kubernetes'

export interface RetryOptions {
  /** the first recheck while content remains */
  minRetryMs: number
  /** the slowest recheck of a namespace held by content that never goes (e.g. an abandoned finalizer) */
  maxRetryMs: number
}

type Json = Record<string, unknown>

const asRecord = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})

export const specFinalizers = (ns: KubeObject): string[] => {
  const f = asRecord(ns.spec).finalizers
  return Array.isArray(f) ? (f as string[]) : []
}

/** A namespace this controller still has to empty and finalize. */
export const isTerminating = (ns: KubeObject | undefined): ns is KubeObject => !!ns?.metadata.deletionTimestamp && specFinalizers(ns).includes(KUBERNETES_FINALIZER)

/**
 * Changes to the content wake the namespace at once; the recheck only covers what sends no change
 * (a finalizer nobody removes). It starts short and grows with how long the namespace has been
 * terminating, so a namespace stuck for good costs one pass every few minutes rather than every second.
 */
export function retryDelay(ns: KubeObject, now: number, opts: RetryOptions): number {
  const since = Date.parse(ns.metadata.deletionTimestamp ?? '')
  const elapsed = Number.isNaN(since) ? 0 : Math.max(0, now - since)
  return Math.min(opts.maxRetryMs, Math.max(opts.minRetryMs, Math.floor(elapsed / 2)))
}

function contentOf(cache: Cache, kinds: readonly ResourceRef[], namespace: string): Remaining[] {
  return kinds.flatMap((resource) => cache.list(resource, namespace).map((object) => ({ resource, object })))
}

/**
 * Deletes in the background, as upstream's deleteCollection does, exactly the object observed.
 * Objects nobody owns go first: deleting a controller before what it manages keeps it from
 * recreating what was just deleted.
 */
function deleteContent(live: Remaining[]): Action[] {
  const owned = (o: KubeObject) => (o.metadata.ownerReferences?.length ?? 0) > 0
  const ordered = [...live.filter((c) => !owned(c.object)), ...live.filter((c) => owned(c.object))]
  return ordered.map(({ resource, object }) => ({
    type: 'delete',
    resource,
    namespace: object.metadata.namespace,
    name: object.metadata.name ?? '',
    preconditions: { uid: object.metadata.uid },
  }))
}

/**
 * Removes this controller's token from spec.finalizers (PUT namespaces/{name}/finalize). The
 * finalize action empties the list, which is exact when the token is the only one, as it is unless
 * another party registered its own; then an update writes the list without the token, keeping the
 * other party's, as upstream does.
 */
export function finalizeNamespace(ns: KubeObject): Action {
  const name = ns.metadata.name ?? ''
  const remaining = specFinalizers(ns).filter((f) => f !== KUBERNETES_FINALIZER)
  if (!remaining.length) return { type: 'finalize', name }
  return { type: 'update', resource: namespaces, object: { ...ns, metadata: { ...ns.metadata }, spec: { ...asRecord(ns.spec), finalizers: remaining } } }
}

/**
 * One pass over a terminating namespace (upstream's namespaced resources deleter): delete every
 * object in it that is not yet being deleted; while objects remain that are finishing their
 * deletion (finalizers, graceful pod termination) report them in the status conditions and check
 * again later; once nothing is left, finalize the namespace so the API server can remove it.
 */
export function reconcileNamespace(name: string, cache: Cache, now: number, kinds: readonly ResourceRef[], opts: RetryOptions): Outcome {
  const ns = cache.get(namespaces, undefined, name)
  if (!isTerminating(ns)) return { actions: [] }
  const content = contentOf(cache, kinds, name)
  // Custom resources are not in the caches: their purge fails, and so holds the finalize back, while any remain.
  if (!content.length) return { actions: [{ type: 'purgeNamespaceCustomResources', namespace: name }, finalizeNamespace(ns)] }
  const requeueAfterMs = retryDelay(ns, now, opts)
  const live = content.filter((c) => !c.object.metadata.deletionTimestamp)
  if (live.length) {
    const actions = deleteContent(live)
    if (asRecord(ns.status).phase !== 'Terminating') actions.unshift({ type: 'updateStatus', resource: namespaces, object: { ...ns, status: { ...asRecord(ns.status), phase: 'Terminating' } } })
    return { actions, requeueAfterMs }
  }
  const status = withConditions(ns, deletionConditions(content), now)
  return { actions: status ? [{ type: 'updateStatus', resource: namespaces, object: { ...ns, status } }] : [], requeueAfterMs }
}
