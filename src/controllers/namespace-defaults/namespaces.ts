import type { KubeObject } from '../../apimachinery/types'
import { namespaces, sameResource } from '../resources'
import type { Cache, ControllerDefinition, Outcome, ResourceRef, WakesOn } from '../runtime/types'

/**
 * Whether a namespace takes new content: it exists, is not being deleted and is Active, as the
 * per-namespace publishers of kube-controller-manager require before they write into it.
 */
export function isActiveNamespace(ns: KubeObject | undefined): ns is KubeObject {
  if (!ns || ns.metadata.deletionTimestamp) return false
  const phase = (ns.status as { phase?: string } | undefined)?.phase
  return phase === undefined || phase === 'Active'
}

/** Every namespace name in the cache: each is one key of a per-namespace controller. */
export const namespaceKeys = (cache: Cache): string[] =>
  cache.list(namespaces).map((ns) => ns.metadata.name ?? '')

/**
 * keysFor of a controller keeping one named object in every namespace: a namespace is its own
 * key; the object (of `kept`, named `name`) stands for its namespace; nothing else concerns it.
 */
export function namespaceKeysFor(kept: ResourceRef, name: string) {
  return (resource: ResourceRef, object: KubeObject): string[] => {
    if (sameResource(resource, namespaces)) return [object.metadata.name ?? '']
    if (sameResource(resource, kept) && object.metadata.name === name && object.metadata.namespace)
      return [object.metadata.namespace]
    return []
  }
}

/** Wakes on every namespace change, and on changes to the kept object only (not its whole kind). */
export function wakesOnNamespacesAnd(kept: ResourceRef, name: string): WakesOn {
  return (resource, _type, object) => !sameResource(resource, kept) || object.metadata.name === name
}

/**
 * A controller keeping the object `name` of `kept` in every namespace: keys are namespace names,
 * woken by namespace changes and by changes to that object alone.
 */
export function perNamespaceController(
  controller: string,
  kept: ResourceRef,
  name: string,
  reconcile: (namespace: string, cache: Cache) => Outcome,
): ControllerDefinition {
  return {
    name: controller,
    watches: {
      kinds: [namespaces, kept],
      wakesOn: wakesOnNamespacesAnd(kept, name),
      keysFor: namespaceKeysFor(kept, name),
      allKeys: namespaceKeys,
    },
    reconcile: (key, cache) => reconcile(key, cache),
  }
}
