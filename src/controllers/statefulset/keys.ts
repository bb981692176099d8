import type { KubeObject } from '../../apimachinery/types'
import { controllerRevisions, pods, sameResource, statefulSets } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { isMemberOf } from './identity'
import { objectKey } from '../../apimachinery/object-key'
import { controllerOf, ownerKeysOf, ownersSelecting, type OwnerKind } from '../shared/owners'

const owners: OwnerKind = { resource: statefulSets, kind: 'StatefulSet' }

/**
 * The keys a pod change concerns, as upstream's pod handlers map them: its controlling set, or for
 * an orphan every set whose selector matches and whose name it carries (getPodStatefulSets); a
 * revision concerns its controlling set.
 */
export function statefulSetKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, statefulSets)) return [objectKey(object)]
  if (sameResource(resource, pods))
    return ownerKeysOf(object, cache, owners, (pod) =>
      ownersSelecting(pod, cache, statefulSets).filter((set) => isMemberOf(set, pod)),
    )
  if (sameResource(resource, controllerRevisions)) {
    const set = controllerOf(object, cache, owners)
    return set ? [objectKey(set)] : []
  }
  return []
}

export function allStatefulSetKeys(cache: Cache): string[] {
  return cache.list(statefulSets).map(objectKey)
}
