import { controllerRevisions, daemonSets, nodes, pods } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allDaemonSetKeys, daemonSetKeysFor } from './keys'
import { reconcileDaemonSet } from './reconcile'
import { wakesOnPodsOf } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'
import { notOnHeartbeats } from '../shared/node-heartbeat'

/**
 * The DaemonSet controller: one pod per eligible node (selector, required affinity, taints against
 * the daemon tolerations), each pinned to its node by affinity for the scheduler to bind, replaced
 * within maxUnavailable on a template change, with the ControllerRevisions `kubectl rollout`
 * reads. Watches daemonsets, pods, nodes and controllerrevisions; keys are `namespace/name`.
 */
export function daemonSetController(): ControllerDefinition {
  return {
    name: 'daemonset',
    watches: {
      kinds: [daemonSets, pods, nodes, controllerRevisions],
      // Of a pod: what the shared pod predicates read, and the node affinity that pins it (placement.ts).
      reads: podReads({ spec: { affinity: true } }),
      wakesOn: notOnHeartbeats(wakesOnPodsOf('DaemonSet')),
      keysFor: daemonSetKeysFor,
      allKeys: allDaemonSetKeys,
    },
    reconcile: reconcileDaemonSet,
  }
}

export { reconcileDaemonSet } from './reconcile'
export { nodeShouldRunDaemonPod, targetNodeName } from './placement'
export { manageDaemonPods, podsByNode } from './manage'
export { rollingUpdateDeletes, maxUnavailableCount } from './rolling'
export { newDaemonPod, pinnedAffinity } from './pod'
export { computeStatus } from './status'
