import type { KubeObject } from '../../apimachinery/types'
import { isEverything, matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { pods, replicaSets, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { ReplicaSet } from '../shared/workloads'
import { objectKey } from '../../apimachinery/object-key'

/**
 * The ReplicaSets in the pod's namespace whose selector matches its labels (GetPodReplicaSets). An
 * empty selector matches nothing here, not everything, as upstream guards against one creeping in.
 */
export function matchingReplicaSets(pod: KubeObject, cache: Cache): KubeObject[] {
  return cache.list(replicaSets, pod.metadata.namespace ?? '').filter((rs) => {
    try {
      const selector = selectorFromLabelSelector((rs as ReplicaSet).spec?.selector)
      return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels)
    } catch {
      return false
    }
  })
}

/**
 * The ReplicaSet keys a pod change concerns, as the upstream pod handlers map them: the controller
 * that owns it (when that ReplicaSet is the one the reference names, by uid), or for an orphan
 * every ReplicaSet that could adopt it. An orphan being deleted concerns nobody.
 */
export function keysForPod(pod: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(pod)
  if (ref) {
    if (ref.kind !== 'ReplicaSet') return []
    const rs = cache.get(replicaSets, pod.metadata.namespace, ref.name)
    return rs && rs.metadata.uid === ref.uid ? [objectKey(rs)] : []
  }
  if (pod.metadata.deletionTimestamp) return []
  return matchingReplicaSets(pod, cache).map(objectKey)
}

export function replicaSetKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, replicaSets)) return [objectKey(object)]
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  return []
}

export function allReplicaSetKeys(cache: Cache): string[] {
  return cache.list(replicaSets).map(objectKey)
}
