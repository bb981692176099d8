import type { KubeObject } from '../../apimachinery/types'

/** The work-queue key of an object: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '')
}

/** The inverse of objectKey, as cache.SplitMetaNamespaceKey. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/')
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) }
}
