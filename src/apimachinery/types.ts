/** A Kubernetes object as stored and served: JSON with TypeMeta and ObjectMeta. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
  [field: string]: unknown
}

/** The ObjectMeta fields the server reads or sets; any other field round-trips untouched. */
export interface ObjectMeta {
  name?: string
  generateName?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string | null
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
  managedFields?: unknown[]
  [field: string]: unknown
}

export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

/** metav1.ListMeta, as a Status carries it. */
export interface ListMeta {
  selfLink?: string
  resourceVersion?: string
  continue?: string
  remainingItemCount?: number
}

/** metav1.Status: the body of every failed request. */
export interface Status {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: ListMeta
  status: 'Success' | 'Failure'
  message?: string
  reason?: StatusReason
  details?: StatusDetails
  code: number
}

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Expired'
  | 'Gone'
  | 'Unauthorized'
  | 'Forbidden'
  | 'RequestEntityTooLarge'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'InternalError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'ServiceUnavailable'

export interface StatusCause {
  reason?: string
  message?: string
  field?: string
}

export interface StatusDetails {
  name?: string
  group?: string
  kind?: string
  uid?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}

/** What a stored change did to its object. */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED'

/** A watch event as sent on the wire. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: KubeObject | Status
}
