import type { KubeObject } from '../../apimachinery/types'
import { cronJobs, jobs, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { objectKey } from '../../apimachinery/object-key'

/** A Job concerns the CronJob its controller reference names (matched by uid). */
function keysForJob(job: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(job)
  if (!ref || ref.kind !== 'CronJob') return []
  const cj = cache.get(cronJobs, job.metadata.namespace, ref.name)
  return cj && cj.metadata.uid === ref.uid ? [objectKey(cj)] : []
}

export function cronJobKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, cronJobs)) return [objectKey(object)]
  if (sameResource(resource, jobs)) return keysForJob(object, cache)
  return []
}

export function allCronJobKeys(cache: Cache): string[] {
  return cache.list(cronJobs).map(objectKey)
}
