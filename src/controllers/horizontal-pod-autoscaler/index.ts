import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { objectKey } from '../../apimachinery/object-key'
import { customResourceDefinitions, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef, WakesOn } from '../runtime/types'
import { reconcileHorizontalPodAutoscaler } from './reconcile'
import { horizontalPodAutoscalers, scalableKinds } from './resources'

const allAutoscalers = (cache: Cache): string[] =>
  cache.list(horizontalPodAutoscalers).map(objectKey)

/** The autoscalers a change concerns: an autoscaler itself; for a workload, those of its namespace that target it. */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, horizontalPodAutoscalers)) return [objectKey(object)]
  if (sameResource(resource, customResourceDefinitions)) return allAutoscalers(cache)
  return cache
    .list(horizontalPodAutoscalers, object.metadata.namespace)
    .filter((hpa) => {
      const ref = asRecord(asRecord(hpa.spec).scaleTargetRef)
      return (
        ref.name === object.metadata.name &&
        scalableKinds.get(`${resource.group}/${String(ref.kind ?? '')}`) === resource
      )
    })
    .map(objectKey)
}

/**
 * What brings a pass forward: an autoscaler created, deleted or given a new spec (its own status
 * writes do not); a workload created, deleted or rescaled. Everything else waits for the sync period.
 */
const wakesOn: WakesOn = (resource, type, object, previous) => {
  if (type !== 'MODIFIED' || !previous) return true
  if (sameResource(resource, horizontalPodAutoscalers))
    return object.metadata.generation !== previous.metadata.generation
  if (sameResource(resource, customResourceDefinitions)) return false
  return asRecord(object.spec).replicas !== asRecord(previous.spec).replicas
}

/**
 * The horizontal pod autoscaler controller: keeps each HorizontalPodAutoscaler's target within its
 * replica bounds through the target's scale subresource, and reports in status and events that no
 * metrics API is served. Keys are the autoscalers' `namespace/name`.
 */
export function horizontalPodAutoscalerController(): ControllerDefinition {
  return {
    name: 'horizontal-pod-autoscaler',
    watches: {
      kinds: [horizontalPodAutoscalers, ...scalableKinds.values(), customResourceDefinitions],
      wakesOn,
      keysFor,
      allKeys: allAutoscalers,
    },
    reconcile: reconcileHorizontalPodAutoscaler,
  }
}

export { horizontalPodAutoscalers } from './resources'
export { reconcileHorizontalPodAutoscaler } from './reconcile'
