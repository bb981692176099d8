import type { ResourceDef } from '../../src/apis/registry'
import type { NodeWriter } from '../../src/apis/node-restriction'
import type { Requester } from '../../src/apis/certificates/csr-object'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

/** Options every write carries from the request. */
export interface WriteOptions {
  dryRun?: boolean
  fieldValidation?: FieldValidation
  fieldManager?: string
  /** set when a node makes the write: NodeRestriction's checks on the object as stored */
  nodeWriter?: NodeWriter
  /** what mutating admission webhooks decided for this write (see src/api/webhooks) */
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

export type { PatchType } from '../../src/apis/patching'

export interface Target {
  def: ResourceDef
  namespace?: string
  name: string
}

/** The store's key: `namespace/name` for namespaced kinds, `name` otherwise (upstream's key order). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name
}

export interface ListResult {
  items: string[]
  resourceVersion: string
  continue?: string
  remainingItemCount?: number
}
