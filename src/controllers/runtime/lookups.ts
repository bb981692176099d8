import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ResourceRef } from './types'

/**
 * The objects naming `uid` in their ownerReferences, from the cache's owner index when it has one
 * (the runner's caches do) or by a scan.
 */
export function ownedBy(cache: Cache, r: ResourceRef, uid: string): KubeObject[] {
  if (cache.ownedBy) return cache.ownedBy(r, uid)
  return cache.list(r).filter((o) => o.metadata.ownerReferences?.some((ref) => ref.uid === uid))
}

/** The objects whose spec.nodeName is `nodeName`, from the cache's node index when it has one or by a scan. */
export function onNode(cache: Cache, r: ResourceRef, nodeName: string): KubeObject[] {
  if (cache.onNode) return cache.onNode(r, nodeName)
  return cache
    .list(r)
    .filter((o) => (o.spec as { nodeName?: unknown } | undefined)?.nodeName === nodeName)
}
