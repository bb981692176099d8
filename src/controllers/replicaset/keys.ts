import type { KubeObject } from '../../apimachinery/types'
import { pods, replicaSets, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { ownerKeysOf } from '../shared/owners'

/**
 * The ReplicaSet keys a pod change concerns, as the upstream pod handlers map them: the controller
 * that owns it (when that ReplicaSet is the one the reference names, by uid), or for an orphan
 * every ReplicaSet that could adopt it (GetPodReplicaSets). An orphan being deleted concerns nobody.
 */
export function replicaSetKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, replicaSets)) return [objectKey(object)]
  if (sameResource(resource, pods))
    return ownerKeysOf(object, cache, { resource: replicaSets, kind: 'ReplicaSet' })
  return []
}

export function allReplicaSetKeys(cache: Cache): string[] {
  return cache.list(replicaSets).map(objectKey)
}
