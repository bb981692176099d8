import type { KubeObject } from '../../apimachinery/types'
import { isEverything, matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { controllerRevisions, daemonSets, nodes, pods, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { DaemonSet } from './types'
import { objectKey } from '../../apimachinery/object-key'

function ownerKey(o: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(o)
  if (!ref || ref.kind !== 'DaemonSet') return []
  const ds = cache.get(daemonSets, o.metadata.namespace, ref.name)
  return ds && ds.metadata.uid === ref.uid ? [objectKey(ds)] : []
}

/** A pod concerns its controlling DaemonSet, or as an orphan every DaemonSet that could adopt it. */
function keysForPod(pod: KubeObject, cache: Cache): string[] {
  if (controllerRefOf(pod)) return ownerKey(pod, cache)
  if (pod.metadata.deletionTimestamp) return []
  return cache
    .list(daemonSets, pod.metadata.namespace ?? '')
    .filter((ds) => {
      try {
        const selector = selectorFromLabelSelector((ds as DaemonSet).spec?.selector)
        return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels)
      } catch {
        return false
      }
    })
    .map(objectKey)
}

/**
 * Keys are the DaemonSets' `namespace/name`. A node change (joining, leaving, labels, taints)
 * concerns every DaemonSet: upstream filters by whether placement changed, which reconcile
 * decides anyway.
 */
export function daemonSetKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, daemonSets)) return [objectKey(object)]
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  if (sameResource(resource, controllerRevisions)) return ownerKey(object, cache)
  if (sameResource(resource, nodes)) return allDaemonSetKeys(cache)
  return []
}

export function allDaemonSetKeys(cache: Cache): string[] {
  return cache.list(daemonSets).map(objectKey)
}
