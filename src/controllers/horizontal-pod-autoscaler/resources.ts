import type { ResourceRef } from '../runtime/types'
import { deployments, replicaSets, replicationControllers, statefulSets } from '../resources'

/** autoscaling/v2 HorizontalPodAutoscalers, as the registry stores them. */
export const horizontalPodAutoscalers: ResourceRef = Object.freeze({
  group: 'autoscaling',
  version: 'v2',
  plural: 'horizontalpodautoscalers',
})

/** The workloads whose scale subresource an autoscaler can drive, by `group/Kind`. */
export const scalableKinds: ReadonlyMap<string, ResourceRef> = new Map([
  ['apps/Deployment', deployments],
  ['apps/ReplicaSet', replicaSets],
  ['apps/StatefulSet', statefulSets],
  ['/ReplicationController', replicationControllers],
])
