import { deployments, pods, replicaSets, sameResource } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allDeploymentKeys, deploymentKeysFor } from './keys'
import { reconcileDeployment } from './reconcile'
import { podLeaving } from '../shared/wakes'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { podReads } from '../shared/pod-reads'

/**
 * The Deployment controller: owns one ReplicaSet per pod template (`<name>-<pod-template-hash>`),
 * rolls from the old ones to the new one with the Deployment's strategy, keeps revision history
 * for `kubectl rollout history/undo`, and reports the status `kubectl rollout status` reads.
 * Watches deployments, replicasets and pods; keys are the Deployments' `namespace/name`.
 */
export function deploymentController(): ControllerDefinition {
  return {
    name: 'deployment',
    watches: {
      kinds: [deployments, replicaSets, pods],
      // Of a pod: its metadata and what the shared pod predicates read (phase, Ready, node, restarts).
      reads: podReads({}),
      // Only Recreate looks at pods, and only for old ones going away (see keysForPod).
      wakesOn: (resource, type, object) =>
        !sameResource(resource, pods) ||
        (controllerRefOf(object)?.kind === 'ReplicaSet' && podLeaving(type, object)),
      keysFor: deploymentKeysFor,
      allKeys: allDeploymentKeys,
    },
    reconcile: reconcileDeployment,
  }
}

export { reconcileDeployment } from './reconcile'
export { podTemplateHash, replicaSetName } from './hash'
