import type { KubeObject } from '../../apimachinery/types'
import { cronJobs, jobs, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { controllerOf } from '../shared/owners'

/** Keys are the CronJobs' `namespace/name`; a Job concerns the CronJob its controller reference names (matched by uid). */
export function cronJobKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, cronJobs)) return [objectKey(object)]
  if (!sameResource(resource, jobs)) return []
  const cj = controllerOf(object, cache, { resource: cronJobs, kind: 'CronJob' })
  return cj ? [objectKey(cj)] : []
}

export function allCronJobKeys(cache: Cache): string[] {
  return cache.list(cronJobs).map(objectKey)
}
