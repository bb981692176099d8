import type { KubeObject } from '../../apimachinery/types'
import type { Action, ResourceRef } from '../runtime/types'

/**
 * Writes `status` as the object's status. Status is its controller's alone, so it is written without
 * a resourceVersion: a spec change racing with it is observed, and its generation reported, on the
 * next pass.
 */
export function statusWrite(resource: ResourceRef, stored: KubeObject, status: unknown): Action {
  const { resourceVersion: _rv, ...metadata } = stored.metadata
  return { type: 'updateStatus', resource, object: { ...stored, metadata, status } }
}
