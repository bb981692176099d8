import type { KubeObject } from '../../apimachinery/types'
import { selectorFromSet } from '../../apimachinery/labels'
import { pods, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { ownerKeysOf, ownersSelecting } from '../shared/owners'
import { wakesOnPodsOf } from '../shared/wakes'
import { reconcileReplicaSet } from '../replicaset/reconcile'
import { ReplicationControllerCache, toRcActions } from './view'
import { replicationControllers } from '../resources'
import { podReads } from '../shared/pod-reads'

/** An RC's equality-based spec.selector. */
const rcSelector = (rc: KubeObject) =>
  selectorFromSet(((rc.spec ?? {}) as { selector?: Record<string, string> }).selector ?? {})

/** As the ReplicaSet controller's pod handlers: the owning RC, or for an orphan every RC that could adopt it. */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, replicationControllers)) return [objectKey(object)]
  if (!sameResource(resource, pods)) return []
  return ownerKeysOf(
    object,
    cache,
    { resource: replicationControllers, kind: 'ReplicationController' },
    (pod) => ownersSelecting(pod, cache, replicationControllers, rcSelector),
  )
}

/**
 * The ReplicationController controller: the ReplicaSet controller's logic over each RC seen as a
 * ReplicaSet with its equality-based selector, writing the RC's status and creating pods the RC
 * controls. Watches replicationcontrollers and pods; keys are the RCs' `namespace/name`.
 */
export function replicationControllerController(): ControllerDefinition {
  return {
    name: 'replicationcontroller',
    watches: {
      kinds: [replicationControllers, pods],
      // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
      reads: podReads({}),
      wakesOn: wakesOnPodsOf('ReplicationController'),
      keysFor,
      allKeys: (cache) => cache.list(replicationControllers).map(objectKey),
    },
    reconcile(key, cache, now, refused, memory) {
      const outcome = reconcileReplicaSet(
        key,
        new ReplicationControllerCache(cache),
        now,
        refused,
        memory,
      )
      return { ...outcome, actions: toRcActions(outcome.actions, cache) }
    },
  }
}
