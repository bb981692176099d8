import type { ControllerDefinition } from '../runtime/types'
import { apiServices, endpoints, services } from '../resources'
import { allKeys, keysFor, wakesOn } from './keys'
import { reconcileAvailability } from './reconcile'

/**
 * kube-aggregator's availability controller: keeps each APIService's Available condition. Local
 * ones are available; one backed by a Service is not, since this server does not proxy
 * aggregated APIs (the reason says what is wanting first: the Service, its port, its endpoints).
 */
export function apiServiceAvailabilityController(): ControllerDefinition {
  return {
    name: 'apiservice-availability',
    watches: {
      kinds: [apiServices, services, endpoints],
      wakesOn,
      keysFor,
      allKeys,
    },
    reconcile: reconcileAvailability,
  }
}
