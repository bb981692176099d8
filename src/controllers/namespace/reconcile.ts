import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome, ResourceRef } from '../runtime/types'
import { deletionConditions, withConditions, type ContentCount } from './conditions'

export type { ContentCount } from './conditions'
import { namespaces } from './resources'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** The token this controller owns in a namespace's spec.finalizers. */
export const KUBERNETES_FINALIZER = 'kubernetes'

export interface RetryOptions {
  /** the first recheck while content remains */
  minRetryMs: number
  /** the slowest recheck of a namespace held by content that never goes (e.g. an abandoned finalizer) */
  maxRetryMs: number
}

export const specFinalizers = (ns: KubeObject): string[] => {
  const f = asRecord(ns.spec).finalizers
  return Array.isArray(f) ? (f as string[]) : []
}

/** A namespace this controller still has to empty and finalize. */
export const isTerminating = (ns: KubeObject | undefined): ns is KubeObject =>
  !!ns?.metadata.deletionTimestamp && specFinalizers(ns).includes(KUBERNETES_FINALIZER)

/**
 * When to look at a terminating namespace again: soon at first, while pods finish their graceful
 * termination, then less often the longer it has been terminating, so a namespace held for good
 * (a finalizer nobody removes) costs one pass every few minutes rather than every second.
 */
export function retryDelay(ns: KubeObject, now: number, opts: RetryOptions): number {
  const since = Date.parse(ns.metadata.deletionTimestamp ?? '')
  const elapsed = Number.isNaN(since) ? 0 : Math.max(0, now - since)
  return Math.min(opts.maxRetryMs, Math.max(opts.minRetryMs, Math.floor(elapsed / 2)))
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
  return {
    type: 'update',
    resource: namespaces,
    object: {
      ...ns,
      metadata: { ...ns.metadata },
      spec: { ...asRecord(ns.spec), finalizers: remaining },
    },
  }
}

/**
 * One pass over a terminating namespace (upstream's namespaced resources deleter): its content is
 * deleted and counted in the stores (the emptyNamespace action), and it is looked at again later
 * while objects finish their deletion (finalizers, graceful pod termination).
 */
export function reconcileNamespace(
  name: string,
  cache: Cache,
  now: number,
  kinds: readonly ResourceRef[],
  opts: RetryOptions,
): Outcome {
  const ns = cache.get(namespaces, undefined, name)
  if (!isTerminating(ns)) return { actions: [] }
  return {
    actions: [{ type: 'emptyNamespace', name, resources: [...kinds] }],
    requeueAfterMs: retryDelay(ns, now, opts),
  }
}

/**
 * What follows the deletes: with nothing left, finalize the namespace so the API server can remove
 * it; otherwise report what remains, and which finalizers hold it, in its status conditions.
 */
export function afterEmptying(
  ns: KubeObject,
  remaining: readonly ContentCount[],
  now: number,
): Action[] {
  if (!remaining.some((r) => r.count > 0)) return [finalizeNamespace(ns)]
  const status = withConditions(ns, deletionConditions(remaining), now)
  return status ? [{ type: 'updateStatus', resource: namespaces, object: { ...ns, status } }] : []
}
