import type { KubeObject } from '../../apimachinery/types'
import { isEverything, matchesLabels, selectorFromSet } from '../../apimachinery/labels'
import { pods, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { wakesOnPodsOf } from '../shared/wakes'
import { Expectations } from '../replicaset/expectations'
import { reconcileReplicaSet } from '../replicaset/reconcile'
import { ReplicationControllerCache, toRcActions } from './view'
import { replicationControllers } from '../resources'
import { podReads } from '../shared/pod-reads'

/** The RCs in the pod's namespace whose selector matches its labels (an empty one matches nothing). */
function matchingControllers(pod: KubeObject, cache: Cache): KubeObject[] {
  return cache.list(replicationControllers, pod.metadata.namespace ?? '').filter((rc) => {
    const selector = selectorFromSet(((rc.spec ?? {}) as { selector?: Record<string, string> }).selector ?? {})
    return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels)
  })
}

/** As the ReplicaSet controller's pod handlers: the owning RC, or for an orphan every RC that could adopt it. */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, replicationControllers)) return [objectKey(object)]
  if (!sameResource(resource, pods)) return []
  const ref = controllerRefOf(object)
  if (ref) {
    if (ref.kind !== 'ReplicationController') return []
    const rc = cache.get(replicationControllers, object.metadata.namespace, ref.name)
    return rc && rc.metadata.uid === ref.uid ? [objectKey(rc)] : []
  }
  if (object.metadata.deletionTimestamp) return []
  return matchingControllers(object, cache).map(objectKey)
}

/**
 * The ReplicationController controller: the ReplicaSet controller's logic over each RC seen as a
 * ReplicaSet with its equality-based selector, writing the RC's status and creating pods the RC
 * controls. Watches replicationcontrollers and pods; keys are the RCs' `namespace/name`.
 */
export function replicationControllerController(): ControllerDefinition {
  const expectations = new Expectations()
  return {
    name: 'replicationcontroller',
    watches: [replicationControllers, pods],
    // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
    reads: podReads({}),
    wakesOn: wakesOnPodsOf('ReplicationController'),
    keysFor,
    allKeys: (cache) => cache.list(replicationControllers).map(objectKey),
    reconcile(key, cache, now, refused) {
      const outcome = reconcileReplicaSet(key, new ReplicationControllerCache(cache), now, expectations, refused)
      return { ...outcome, actions: toRcActions(outcome.actions, cache) }
    },
    memory: expectations.memory,
  }
}
