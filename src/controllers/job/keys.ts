import type { KubeObject } from '../../apimachinery/types'
import { jobs, pods, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { objectKey } from '../../apimachinery/object-key'

/** A pod concerns the Job its controller reference names (matched by uid, as resolveControllerRef does). */
function keysForPod(pod: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(pod)
  if (!ref || ref.kind !== 'Job') return []
  const job = cache.get(jobs, pod.metadata.namespace, ref.name)
  return job && job.metadata.uid === ref.uid ? [objectKey(job)] : []
}

export function jobKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, jobs)) return [objectKey(object)]
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  return []
}

export function allJobKeys(cache: Cache): string[] {
  return cache.list(jobs).map(objectKey)
}
