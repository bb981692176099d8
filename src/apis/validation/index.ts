import type { FieldCause } from '../../apimachinery/field-errors'
import type { KubeObject } from '../../apimachinery/types'
import { validateConfigMap, validatePod, validateSecret, validateService } from './core'
import { validateCronJob, validateJob } from './batch'
import {
  validateDaemonSet,
  validateDeployment,
  validateReplicaSet,
  validateReplicationController,
  validateStatefulSet,
} from './apps'
import { validatePodTemplateSpec } from './pod-spec'

/**
 * Spec validation for the kinds the server acts on, as kube-apiserver v1.32 validates them on
 * create (pkg/apis/{core,apps,batch}/validation), with upstream's field paths and messages.
 * Metadata is validateObjectMeta's job; call it first, as upstream lists metadata causes first.
 * Fields that upstream defaults before validating (restartPolicy, protocols, strategies…) are
 * validated as their default when absent, so the result does not depend on defaulting first.
 */

export const validators = new Map<string, (obj: KubeObject) => FieldCause[]>([
  ['Pod', validatePod],
  ['PodTemplate', (obj) => validatePodTemplateSpec(obj.template, 'template')],
  ['ReplicationController', validateReplicationController],
  ['Deployment', validateDeployment],
  ['ReplicaSet', validateReplicaSet],
  ['StatefulSet', validateStatefulSet],
  ['DaemonSet', validateDaemonSet],
  ['Job', validateJob],
  ['CronJob', validateCronJob],
  ['Service', validateService],
  ['ConfigMap', validateConfigMap],
  ['Secret', validateSecret],
])

/** The kinds validateWorkload knows; any other kind has no spec rules here. */
export const validatedKinds: readonly string[] = [...validators.keys()]

/**
 * Spec causes for an object of `kind` on create, in upstream's order; empty when valid or when
 * the kind has no rules here.
 */
export function validateWorkload(kind: string, obj: KubeObject): FieldCause[] {
  return validators.get(kind)?.(obj) ?? []
}
