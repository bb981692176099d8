import type { ChangeType, KubeObject, Status } from '../../apimachinery/types'
import type { ControllerMemory } from './memory'
import type { Fields } from './fields'

/** Identifies a resource the way the registry does: core group is ''. */
export interface ResourceRef {
  group: string
  version: string
  plural: string
}

/** A side effect the runner performs; preconditions make it safe to repeat. */
export type Action =
  | { type: 'create'; resource: ResourceRef; object: KubeObject }
  | {
      type: 'delete'
      resource: ResourceRef
      namespace?: string
      name: string
      preconditions?: { uid?: string; resourceVersion?: string }
      gracePeriodSeconds?: number
      propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'
    }
  /** a full update carrying metadata.resourceVersion (409 if stale) */
  | { type: 'update'; resource: ResourceRef; object: KubeObject }
  /** replaces only status; skipped when equal to what is stored */
  | { type: 'updateStatus'; resource: ResourceRef; object: KubeObject }
  /** a JSON merge patch of the named object (or of its status with `subresource: 'status'`) */
  | { type: 'patch'; resource: ResourceRef; namespace?: string; name: string; patch: unknown; subresource?: 'status' }
  /** sets a workload's replicas through its scale subresource, as PUT {resource}/{name}/scale */
  | { type: 'scale'; resource: ResourceRef; namespace: string; name: string; replicas: number }
  /** binds a pending pod to a node, as POST pods/binding (409 if it is already bound) */
  | { type: 'bind'; namespace: string; name: string; uid: string; nodeName: string }
  /** empties a terminating namespace's spec.finalizers, as PUT namespaces/{name}/finalize */
  | { type: 'finalize'; name: string }
  /** deletes every object of a terminating CRD's kind, then releases the CRD's cleanup finalizer */
  | { type: 'purgeCustomResources'; crd: KubeObject }
  /**
   * deletes, store-side, every object of the given kinds and of every custom resource in a
   * terminating namespace; then finalizes it if nothing is left, or reports in its status what remains
   */
  | { type: 'emptyNamespace'; name: string; resources: ResourceRef[] }
  /** signs an approved CertificateSigningRequest with the cluster CA and writes the certificate through `status` */
  | { type: 'issueCertificate'; resource: ResourceRef; csr: KubeObject; notBefore: number; notAfter: number }
  /** a core/v1 Event about an object, as kube-controller-manager's recorders emit */
  | { type: 'event'; involved: KubeObject; eventType: 'Normal' | 'Warning'; reason: string; message: string }

/** Whether a stored change (the object after it, and before it when it had a before) should bring a pass forward. */
export type WakesOn = (resource: ResourceRef, type: ChangeType, object: KubeObject, previous?: KubeObject) => boolean

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
 * A controller: which kinds it watches, how a change maps to work-queue keys, and a pure
 * reconcile function from observed state to actions. Keys are `namespace/name` or `name`.
 */
export interface ControllerDefinition {
  name: string
  /** kinds whose caches this controller reads; changes to them are mapped to keys by `keysFor` */
  watches: ResourceRef[]
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
  /** every key a full resync visits */
  allKeys(cache: Cache): string[]
  /** the order in which a pass takes its due keys (earliest due first when unset) */
  order?(keys: string[], cache: Cache): string[]
  /**
   * pure: no I/O, no clock (time is `now`); `refused` is the write that stopped this key's
   * actions in its previous reconcile, if one did
   */
  reconcile(key: string, cache: Cache, now: number, refused?: Refused): Outcome
  /**
   * What reconcile remembers between passes beyond the caches; the host restores it before the
   * first pass of a new instance and saves its changes after every pass.
   */
  memory?: ControllerMemory
}
