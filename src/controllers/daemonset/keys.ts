import type { KubeObject } from '../../apimachinery/types'
import { controllerRevisions, daemonSets, nodes, pods, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { controllerOf, ownerKeysOf, type OwnerKind } from '../shared/owners'

const owners: OwnerKind = { resource: daemonSets, kind: 'DaemonSet' }

/**
 * Keys are the DaemonSets' `namespace/name`. A pod concerns its controlling DaemonSet, or as an
 * orphan every DaemonSet that could adopt it; a revision its controlling DaemonSet. A node change
 * (joining, leaving, labels, taints) concerns every DaemonSet: upstream filters by whether
 * placement changed, which reconcile decides anyway.
 */
export function daemonSetKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, daemonSets)) return [objectKey(object)]
  if (sameResource(resource, pods)) return ownerKeysOf(object, cache, owners)
  if (sameResource(resource, controllerRevisions)) {
    const ds = controllerOf(object, cache, owners)
    return ds ? [objectKey(ds)] : []
  }
  if (sameResource(resource, nodes)) return allDaemonSetKeys(cache)
  return []
}

export function allDaemonSetKeys(cache: Cache): string[] {
  return cache.list(daemonSets).map(objectKey)
}
