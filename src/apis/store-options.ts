import type { ResourceDef } from './registry'
import type { NodeWriter } from './node-restriction'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

/** Options every write carries from the request. */
export interface WriteOptions {
  dryRun?: boolean
  fieldValidation?: FieldValidation
  fieldManager?: string
  /** set when a node makes the write: NodeRestriction's checks on the object as stored */
  nodeWriter?: NodeWriter
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
