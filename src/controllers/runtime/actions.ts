import type { KubeObject } from '../../apimachinery/types'
import type { ResourceRef } from './resource-ref'

/**
 * Every action a reconcile may return, by its type: a side effect the runner performs, whose
 * preconditions make it safe to repeat. These are the API writes any controller makes; a
 * controller that needs an effect of its own (emptying a namespace, signing a certificate) adds it
 * here by declaration merging (`declare module '../runtime/actions'`) and registers its handler
 * with `registerActions` (dispatch.ts).
 */
export interface Actions {
  create: { type: 'create'; resource: ResourceRef; object: KubeObject }
  delete: {
    type: 'delete'
    resource: ResourceRef
    namespace?: string
    name: string
    preconditions?: { uid?: string; resourceVersion?: string }
    gracePeriodSeconds?: number
    propagationPolicy?: 'Background' | 'Foreground' | 'Orphan'
  }
  /** a full update carrying metadata.resourceVersion (409 if stale) */
  update: { type: 'update'; resource: ResourceRef; object: KubeObject }
  /** replaces only status; skipped when equal to what is stored */
  updateStatus: { type: 'updateStatus'; resource: ResourceRef; object: KubeObject }
  /** a JSON merge patch of the named object (or of its status with `subresource: 'status'`) */
  patch: {
    type: 'patch'
    resource: ResourceRef
    namespace?: string
    name: string
    patch: unknown
    subresource?: 'status'
  }
  /** sets a workload's replicas through its scale subresource, as PUT {resource}/{name}/scale */
  scale: { type: 'scale'; resource: ResourceRef; namespace: string; name: string; replicas: number }
  /** binds a pending pod to a node, as POST pods/binding (409 if it is already bound) */
  bind: { type: 'bind'; namespace: string; name: string; uid: string; nodeName: string }
  /** empties a terminating namespace's spec.finalizers, as PUT namespaces/{name}/finalize */
  finalize: { type: 'finalize'; name: string }
  /** a core/v1 Event about an object, as kube-controller-manager's recorders emit */
  event: {
    type: 'event'
    involved: KubeObject
    eventType: 'Normal' | 'Warning'
    reason: string
    message: string
  }
}

export type ActionType = keyof Actions

/** A side effect the runner performs; preconditions make it safe to repeat. */
export type Action = Actions[ActionType]

/** The action of one type. */
export type ActionOf<K extends ActionType> = Actions[K]
