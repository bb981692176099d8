import type { ChangeType, KubeObject, Status } from '../../apimachinery/types'
import type { Action } from './actions'
import type { MemoryChanges, Remembered } from './memory'
import type { Fields } from './fields'
import type { ResourceRef } from './resource-ref'

export type { Action } from './actions'
export type { ResourceRef } from './resource-ref'

/** Whether a stored change (the object after it, and before it when it had a before) should bring a pass forward. */
export type WakesOn = (
  resource: ResourceRef,
  type: ChangeType,
  object: KubeObject,
  previous?: KubeObject,
) => boolean

/**
 * A write the API refused, and the action that asked for it: what stopped a key's actions, as the
 * next reconcile of that key observes it (upstream's sync returns the error and reports it).
 */
export interface Refused {
  action: Action
  /** the API's answer; its message is the error text a client prints */
  status: Status
}

/** What one reconcile pass decided. */
export interface Outcome {
  actions: Action[]
  /** come back to this key after this long even if nothing changes (e.g. a timeout to observe) */
  requeueAfterMs?: number
  /** what the controller's memory is to hold from now on: entries set, or forgotten (undefined) */
  memory?: MemoryChanges
}

/** A read-only view of the informer caches a controller observes from. */
export interface Cache {
  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined
  list(resource: ResourceRef, namespace?: string): KubeObject[]
  /** the objects naming this uid in their ownerReferences, from an index (read through `ownedBy` in lookups.ts) */
  ownedBy?(resource: ResourceRef, uid: string): KubeObject[]
  /** the objects whose spec.nodeName is this node, from an index (read through `onNode` in lookups.ts) */
  onNode?(resource: ResourceRef, nodeName: string): KubeObject[]
}

/**
 * What a controller watches, declared in one place (controller-runtime's For, Owns and Watches,
 * with their event handlers and predicates): the kinds it caches, what of each it reads, which
 * work-queue keys a change concerns, and which changes are worth a pass. Keys are `namespace/name`
 * or `name`, or whatever else the controller's reconcile understands.
 */
export interface Watches {
  /** the kinds whose caches the controller reads, synced in this order at the start of each pass */
  kinds: ResourceRef[]
  /**
   * The fields of a watched kind that this controller (its keysFor, order and reconcile) reads; its
   * cache of that kind keeps only those, with apiVersion, kind and metadata. Undefined (or no
   * `reads`): the whole object. A kind it writes back whole (`update`) must be kept whole, and one
   * whose status it replaces (`updateStatus`) must keep its status whole: the runner refuses either
   * write otherwise.
   */
  reads?(resource: ResourceRef): Fields | undefined
  /** the keys a changed object concerns (its own key, its owner's, …) */
  keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[]
  /** every key a full resync visits */
  allKeys(cache: Cache): string[]
  /**
   * Which changes bring a pass forward (every change when unset). Changes that do not wake the
   * controller still reach its caches on its next pass. Runs in the store: pure and cheap.
   */
  wakesOn?: WakesOn
  /**
   * Which changes a pass queues the keys of (every change when unset); the others still reach the
   * caches, and the keys they concern are visited at the next resync.
   */
  queuesOn?: WakesOn
  /**
   * Watched kinds whose objects' deadlines (as their store computes them: a node Lease unrenewed
   * past the grace period) bring a pass over the keys those objects concern, once the deadline
   * passes with the object unchanged. A change that only moves a deadline later need then wake
   * nothing.
   */
  deadlines?: ResourceRef[]
  /** the order in which a pass takes its due keys (earliest due first when unset) */
  order?(keys: string[], cache: Cache): string[]
}

/**
 * Pure: no I/O, no clock (time is `now`). `refused` is the write that stopped this key's actions
 * in its previous reconcile, if one did; `memory` is what the controller remembered so far, and the
 * outcome's `memory` what it is to remember from now on (both kept by its host, past evictions).
 */
export type Reconcile = (
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
  memory?: Remembered,
) => Outcome

/**
 * A controller, as controller-runtime's builder puts one together: the name that identifies it (its
 * host, the user its writes are made as, the source of its events), what it watches, and its
 * Reconciler. Everything else is the runtime's: the caches, the work queue and its resync, the
 * memory reconcile asks it to keep, and the last refusal of each key.
 */
export interface ControllerDefinition {
  name: string
  watches: Watches
  reconcile: Reconcile
  /**
   * The least time between two full resyncs of this controller, when longer than its host's
   * (CONTROLLER_RESYNC_SECONDS): for one that every change and deadline it needs reaches anyway,
   * whose resync is only the net for a notification lost.
   */
  resyncMs?: number
}
