import type { KubeObject } from '../../apimachinery/types'
import { jobs, pods, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { controllerOf } from '../shared/owners'

/** Keys are the Jobs' `namespace/name`; a pod concerns the Job its controller reference names (matched by uid). */
export function jobKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, jobs)) return [objectKey(object)]
  if (!sameResource(resource, pods)) return []
  const job = controllerOf(object, cache, { resource: jobs, kind: 'Job' })
  return job ? [objectKey(job)] : []
}

export function allJobKeys(cache: Cache): string[] {
  return cache.list(jobs).map(objectKey)
}
