import type { KubeObject } from '../../apimachinery/types'
import { namespaces, sameResource } from '../resources'
import type { ControllerDefinition, ResourceRef } from '../runtime/types'
import { apiServiceIp, kubernetesServiceName, kubernetesServiceNamespace } from './desired'
import type { ApiEndpoint } from '../../settings/api-endpoint'
import { reconcileKubernetesService } from './reconcile'
import { endpointSlices, endpoints, services } from '../resources'
import { namespacedKey } from '../../apimachinery/object-key'

const key = namespacedKey(kubernetesServiceNamespace, kubernetesServiceName)

const concerns = (resource: ResourceRef, o: KubeObject) =>
  sameResource(resource, namespaces)
    ? o.metadata.name === kubernetesServiceNamespace
    : o.metadata.namespace === kubernetesServiceNamespace &&
      o.metadata.name === kubernetesServiceName

/**
 * Keeps `default/kubernetes`, the Service through which clients reach the API, with its Endpoints
 * and EndpointSlice: recreated when deleted, put back when changed. The cluster IP is the first
 * address of `serviceRange`; `endpoint` is where the API listens, when it has an IP.
 */
export function kubernetesServiceController(
  serviceRange: string,
  endpoint: ApiEndpoint | undefined,
): ControllerDefinition {
  const clusterIP = apiServiceIp(serviceRange)
  return {
    name: 'kubernetes-service',
    watches: {
      kinds: [namespaces, services, endpoints, endpointSlices],
      wakesOn: (resource, _type, object) => concerns(resource, object),
      keysFor: (resource, object) => (concerns(resource, object) ? [key] : []),
      allKeys: () => [key],
    },
    reconcile: (_key, cache) => reconcileKubernetesService(cache, clusterIP, endpoint),
  }
}
