/**
 * The part of an object field managers own. Like kube-apiserver, identity and system metadata are
 * never tracked, and each kind's reset fields are left out: status for writes to the main resource
 * of kinds with a status subresource, everything but status for writes to that subresource.
 */
import type { KubeObject } from '../../apimachinery/types'
import type { ResourceDef } from '../resource-def'
import { isObject } from './types'

const systemMeta = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'selfLink',
  'managedFields',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]

export type Subresource = 'status' | undefined

export function trackedView(
  def: ResourceDef,
  obj: unknown,
  subresource: Subresource,
): Record<string, unknown> {
  if (!isObject(obj)) return {}
  if (subresource === 'status') return obj.status === undefined ? {} : { status: obj.status }
  const { apiVersion: _a, kind: _k, ...rest } = obj
  if (def.subresources.includes('status')) delete rest.status
  if (isObject(rest.metadata)) {
    const meta = { ...rest.metadata }
    for (const f of systemMeta) delete meta[f]
    if (Object.keys(meta).length) rest.metadata = meta
    else delete rest.metadata
  }
  return rest
}
