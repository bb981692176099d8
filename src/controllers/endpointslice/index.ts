import { endpointSlices, pods, services } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allEndpointSliceKeys, endpointSliceKeysFor } from './keys'
import { reconcileEndpointSlices } from './reconcile'
import { wakesOnLabelledPods } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'
import { endpointPodReads } from '../endpoints/service-pods'

/**
 * The EndpointSlice controller: keeps discovery.k8s.io/v1 EndpointSlices, owned by and labelled
 * for each selector-bearing Service, listing its pods as endpoints with ready, serving and
 * terminating conditions. Watches services, pods and endpointslices; keys are the services'
 * `namespace/name`.
 */
export function endpointSliceController(): ControllerDefinition {
  return {
    name: 'endpointslice',
    watches: {
      kinds: [services, pods, endpointSlices],
      // Of a pod: what the shared pod predicates read, its addresses (podIP), hostname and subdomain
      // (hostnameFor), and its containers' and sidecars' named ports (findPort).
      reads: podReads(endpointPodReads),
      wakesOn: wakesOnLabelledPods,
      keysFor: endpointSliceKeysFor,
      allKeys: allEndpointSliceKeys,
    },
    reconcile: (key, cache) => reconcileEndpointSlices(key, cache),
  }
}

export { reconcileEndpointSlices } from './reconcile'
export { desiredSlices, podToEndpoint } from './desired'
