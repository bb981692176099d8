import type { ResourceDef } from './resource-def'
import type { Status } from '../apimachinery/types'
import type { NodeWriter } from './node-restriction'
import type { Requester } from './certificates/csr-object'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

/** Options every write carries from the request. */
export interface WriteOptions {
  dryRun?: boolean
  fieldValidation?: FieldValidation
  fieldManager?: string
  /** set when a node makes the write: NodeRestriction's checks on the object as stored */
  nodeWriter?: NodeWriter
  /** what mutating admission webhooks decided for this write (see src/admission/webhooks) */
  admission?: AdmissionDecision
  /** who asks, for kinds that record their creator (CertificateSigningRequest spec.username…) */
  requester?: Requester
}

/**
 * The outcome of admission webhooks for one write: the JSON patch their answers add up to, applied
 * to the admitted object and admitted again, and the resourceVersion of the object they were shown
 * (an update or patch of any other version is a conflict, and the caller runs admission again).
 */
export interface AdmissionDecision {
  patch?: unknown[]
  resourceVersion?: string
}

/** Write options plus `force`, which only applies read. */
export interface ApplyWriteOptions extends WriteOptions {
  force?: boolean
}

export interface ListOptions {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
  limit?: number
  continue?: string
  resourceVersion?: string
  resourceVersionMatch?: string
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string }
  gracePeriodSeconds?: number
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground'
}

/** The patch a PATCH request carries, by its Content-Type. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply'

export interface Target {
  def: ResourceDef
  namespace?: string
  name: string
}

export interface ListResult {
  items: string[]
  resourceVersion: string
  continue?: string
  remainingItemCount?: number
}

/** A write's outcome: the object to return, and whether it was created / still exists. */
export interface WriteResult {
  object: string
  created?: boolean
  /** false when a delete removed the object; true when it waits for finalizers or graceful termination */
  pending?: boolean
  /** an update that removed the last finalizer of an object being deleted removed the object */
  deleted?: boolean
}

/** One pod to bind, as a POST pods/binding names it. */
export interface Binding {
  namespace: string
  name: string
  nodeName: string
  uid?: string
}

/** One write's answer in a batch: the object written, or why it was refused. */
export interface ItemResult {
  object?: string
  status?: Status
}
