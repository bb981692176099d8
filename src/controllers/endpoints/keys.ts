import type { KubeObject } from '../../apimachinery/types'
import { endpoints, pods, sameResource, services } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { servicesOfPod } from './service-pods'
import { objectKey } from '../../apimachinery/object-key'

/** The annotation of a leader-election record kept in an Endpoints object, which has no service. */
export const leaderElectionAnnotation = 'control-plane.alpha.kubernetes.io/leader'

/**
 * Keys are the services' `namespace/name`. A pod concerns the services selecting it (the runner
 * also hands over its previous state, so a service it stopped matching hears of it too). An
 * Endpoints object concerns its service when there is one, so a hand edit or deletion is repaired.
 */
export function endpointsKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, services)) return [objectKey(object)]
  if (sameResource(resource, pods)) return servicesOfPod(object, cache).map(objectKey)
  if (sameResource(resource, endpoints))
    return cache.get(services, object.metadata.namespace, object.metadata.name ?? '')
      ? [objectKey(object)]
      : []
  return []
}

/**
 * Every service, plus every Endpoints object (checkLeftoverEndpoints): one whose service is gone
 * is deleted when its key is reconciled. Leader-election records are left alone.
 */
export function allEndpointsKeys(cache: Cache): string[] {
  const keys = new Set(cache.list(services).map(objectKey))
  for (const ep of cache.list(endpoints))
    if (!ep.metadata.annotations?.[leaderElectionAnnotation]) keys.add(objectKey(ep))
  return [...keys]
}
