import type { ControllerDefinition, ResourceRef } from '../runtime/types'
import { isTerminating, reconcileNamespace, type RetryOptions } from './reconcile'
import { contentKinds, namespaces } from './resources'
import { registerActions } from '../runtime/dispatch'
import { namespaceActions } from './effects'

// Emptying a namespace is this controller's own action, performed by the runner as any other.
registerActions(namespaceActions)

export interface NamespaceControllerOptions {
  /** first recheck of a namespace whose content is still finishing (default 1 s) */
  minRetryMs?: number
  /** slowest recheck (default 5 min) */
  maxRetryMs?: number
}

/**
 * The namespace controller: empties a terminating namespace of every object of the given
 * namespaced kinds and of every custom resource, then finalizes it. Keys are namespace names. It
 * watches namespaces only: the content is deleted and counted in the stores, so no object of it is
 * cached here, and a namespace still waiting for its content is looked at again on its own schedule.
 */
export function namespaceController(
  resources: readonly ResourceRef[],
  options: NamespaceControllerOptions = {},
): ControllerDefinition {
  const kinds = contentKinds(resources)
  const retry: RetryOptions = {
    minRetryMs: options.minRetryMs ?? 1000,
    maxRetryMs: options.maxRetryMs ?? 300_000,
  }
  return {
    name: 'namespace',
    watches: {
      kinds: [namespaces],
      keysFor: (_resource, object, cache) => {
        const name = object.metadata.name ?? ''
        return isTerminating(cache.get(namespaces, undefined, name)) ? [name] : []
      },
      allKeys: (cache) =>
        cache
          .list(namespaces)
          .filter((ns) => isTerminating(ns))
          .map((ns) => ns.metadata.name ?? ''),
    },
    reconcile: (key, cache, now) => reconcileNamespace(key, cache, now, kinds, retry),
  }
}

export { namespacedResources } from './resources'
export { KUBERNETES_FINALIZER } from './reconcile'
