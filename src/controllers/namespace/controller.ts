import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { sameResource } from '../resources'
import { isTerminating, reconcileNamespace, type RetryOptions } from './reconcile'
import { contentKinds, namespaces } from './resources'

export interface NamespaceControllerOptions {
  /** first recheck of a namespace whose content is still finishing (default 1 s) */
  minRetryMs?: number
  /** slowest recheck (default 5 min) */
  maxRetryMs?: number
}

/**
 * The namespace controller: empties a terminating namespace of every object of the given
 * namespaced kinds, then finalizes it. Keys are namespace names; a change to any object in a
 * terminating namespace maps to that namespace.
 *
 * The namespace cache is synced before the content caches (the runner syncs in `watches` order),
 * so content seen is never older than the namespace's termination; from then on the API server
 * refuses new content, and what the content caches lack was not there when they were read.
 */
export function namespaceController(resources: readonly ResourceRef[], options: NamespaceControllerOptions = {}): ControllerDefinition {
  const kinds = contentKinds(resources)
  const retry: RetryOptions = { minRetryMs: options.minRetryMs ?? 1000, maxRetryMs: options.maxRetryMs ?? 300_000 }

  const keysFor = (resource: ResourceRef, object: KubeObject, cache: Cache): string[] => {
    if (sameResource(resource, namespaces)) {
      const name = object.metadata.name ?? ''
      return isTerminating(cache.get(namespaces, undefined, name)) ? [name] : []
    }
    const namespace = object.metadata.namespace
    return namespace && isTerminating(cache.get(namespaces, undefined, namespace)) ? [namespace] : []
  }

  return {
    name: 'namespace',
    watches: [namespaces, ...kinds],
    // Content only matters while it goes away: its creation and updates (leases renewing, pods
    // reporting) need no pass, and a terminating namespace rechecks on its own schedule anyway.
    wakesOn: (resource, type, object) => sameResource(resource, namespaces) || type === 'DELETED' || !!object.metadata.deletionTimestamp,
    keysFor,
    allKeys: (cache) =>
      cache
        .list(namespaces)
        .filter((ns) => isTerminating(ns))
        .map((ns) => ns.metadata.name ?? ''),
    reconcile: (key, cache, now) => reconcileNamespace(key, cache, now, kinds, retry),
  }
}
