import type { KubeObject } from '../../apimachinery/types'
import { servicesOfPod } from '../endpoints/service-pods'
import { endpointSlices, pods, sameResource, services } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerName, managedByLabel, serviceNameLabel } from './resources'
import { namespacedKey, objectKey } from '../../apimachinery/object-key'

/** Whether this controller manages the slice (the managed-by label says so). */
export function isManagedSlice(slice: KubeObject): boolean {
  return slice.metadata.labels?.[managedByLabel] === controllerName
}

/**
 * Keys are the services' `namespace/name`. A pod concerns the services selecting it; a managed
 * slice concerns the service its label names, so an edited or deleted slice is put right.
 */
export function endpointSliceKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, services)) return [objectKey(object)]
  if (sameResource(resource, pods)) return servicesOfPod(object, cache).map(objectKey)
  if (sameResource(resource, endpointSlices)) {
    const service = object.metadata.labels?.[serviceNameLabel]
    return isManagedSlice(object) && service
      ? [namespacedKey(object.metadata.namespace, service)]
      : []
  }
  return []
}

export function allEndpointSliceKeys(cache: Cache): string[] {
  return cache.list(services).map(objectKey)
}
