import type { KubeObject } from '../../apimachinery/types'
import { isEverything, matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { controllerRevisions, pods, sameResource, statefulSets } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { isMemberOf } from './identity'
import type { StatefulSet } from './types'
import { objectKey } from '../../apimachinery/object-key'

/** The set its controller reference names, when that set (by uid) is in the cache. */
function ownerKey(o: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(o)
  if (!ref || ref.kind !== 'StatefulSet') return []
  const set = cache.get(statefulSets, o.metadata.namespace, ref.name)
  return set && set.metadata.uid === ref.uid ? [objectKey(set)] : []
}

/**
 * The keys a pod change concerns, as upstream's pod handlers map them: its controlling set, or for
 * an orphan every set whose selector matches and whose name it carries (getPodStatefulSets).
 */
function keysForPod(pod: KubeObject, cache: Cache): string[] {
  if (controllerRefOf(pod)) return ownerKey(pod, cache)
  if (pod.metadata.deletionTimestamp) return []
  return cache
    .list(statefulSets, pod.metadata.namespace ?? '')
    .filter((set) => {
      if (!isMemberOf(set, pod)) return false
      try {
        const selector = selectorFromLabelSelector((set as StatefulSet).spec?.selector)
        return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels)
      } catch {
        return false
      }
    })
    .map(objectKey)
}

export function statefulSetKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, statefulSets)) return [objectKey(object)]
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  if (sameResource(resource, controllerRevisions)) return ownerKey(object, cache)
  return []
}

export function allStatefulSetKeys(cache: Cache): string[] {
  return cache.list(statefulSets).map(objectKey)
}
