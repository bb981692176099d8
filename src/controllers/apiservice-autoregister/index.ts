import type { ControllerDefinition } from '../runtime/types'
import { apiServices } from '../resources'
import { localApiServices } from '../../apis/apiregistration/apiservice'
import { reconcileLocalApiService } from './reconcile'

/**
 * Keeps one Local APIService (`v1.`, `v1.apps`, `v2.autoscaling`, …) per group version the
 * built-in registry serves, labelled `kube-aggregator.kubernetes.io/automanaged: onstart`:
 * recreated when deleted, its spec put back when changed.
 */
export function apiServiceAutoregisterController(): ControllerDefinition {
  const wanted = new Map(localApiServices().map((o) => [o.metadata.name!, o]))
  return {
    name: 'apiservice-autoregister',
    watches: {
      kinds: [apiServices],
      wakesOn: (_r, _t, object) => wanted.has(object.metadata.name ?? ''),
      keysFor: (_r, object) =>
        wanted.has(object.metadata.name ?? '') ? [object.metadata.name!] : [],
      allKeys: () => [...wanted.keys()],
    },
    reconcile: (key, cache) => reconcileLocalApiService(wanted.get(key), cache),
  }
}
