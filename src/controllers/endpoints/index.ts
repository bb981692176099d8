import { endpoints, pods, services } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allEndpointsKeys, endpointsKeysFor } from './keys'
import { reconcileEndpoints } from './reconcile'
import { wakesOnLabelledPods } from '../shared/wakes'

/**
 * The Endpoints controller: keeps an Endpoints object, named as the service, listing the ready and
 * not-ready addresses of the pods each selector-bearing Service selects. Watches services, pods and
 * endpoints; keys are the services' `namespace/name`.
 */
export function endpointsController(): ControllerDefinition {
  return {
    name: 'endpoints',
    watches: [services, pods, endpoints],
    wakesOn: wakesOnLabelledPods,
    keysFor: endpointsKeysFor,
    allKeys: allEndpointsKeys,
    reconcile: (key, cache) => reconcileEndpoints(key, cache),
  }
}

export { reconcileEndpoints } from './reconcile'
export { computeSubsets } from './subsets'
export { findPort } from './ports'
