import type { KubeObject } from './types'

/**
 * The key of an object among those of its kind: `namespace/name`, or `name` when cluster-scoped
 * (client-go's MetaNamespaceKeyFunc). The store keys its rows with it and controllers queue it.
 */
export function namespacedKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name
}

/** The key of an object: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(o: KubeObject): string {
  return namespacedKey(o.metadata.namespace, o.metadata.name ?? '')
}

/** The inverse of objectKey, as cache.SplitMetaNamespaceKey. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/')
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) }
}
