import { endpoints, pods, services } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allEndpointsKeys, endpointsKeysFor } from './keys'
import { reconcileEndpoints } from './reconcile'
import { wakesOnLabelledPods } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'
import { endpointPodReads } from './service-pods'

/**
 * The Endpoints controller: keeps an Endpoints object, named as the service, listing the ready and
 * not-ready addresses of the pods each selector-bearing Service selects. Watches services, pods and
 * endpoints; keys are the services' `namespace/name`.
 */
export function endpointsController(): ControllerDefinition {
  return {
    name: 'endpoints',
    watches: {
      kinds: [services, pods, endpoints],
      // Of a pod: what the shared pod predicates read, its addresses (podIP), hostname and subdomain
      // (hostnameFor), and its containers' and sidecars' named ports (findPort).
      reads: podReads(endpointPodReads),
      wakesOn: wakesOnLabelledPods,
      keysFor: endpointsKeysFor,
      allKeys: allEndpointsKeys,
    },
    reconcile: (key, cache) => reconcileEndpoints(key, cache),
  }
}

export { reconcileEndpoints } from './reconcile'
export { computeSubsets } from './subsets'
export { findPort } from './ports'
