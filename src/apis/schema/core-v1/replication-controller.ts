/** Structural schema of core/v1 ReplicationController (k8s.io/api/core/v1). */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, int, kind, listOf, mapOf, required, str, struct, time } from '../dsl'
import { c } from './shorthands'

export const coreV1Replication: SchemaSet = group(CORE, {
  ReplicationController: kind(
    'ReplicationController represents the configuration of a replication controller.',
    {
      spec: c(
        'ReplicationControllerSpec',
        'Spec defines the specification of the desired behavior of the replication controller.',
      ),
      status: c(
        'ReplicationControllerStatus',
        'Status is the most recently observed status of the replication controller.',
      ),
    },
  ),
  ReplicationControllerSpec: struct({
    replicas: int(
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.',
    ),
    minReadySeconds: int(
      'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available.',
    ),
    selector: mapOf(
      str(),
      'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template.',
    ),
    template: c(
      'PodTemplateSpec',
      'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
    ),
  }),
  ReplicationControllerStatus: struct({
    replicas: required(int('Replicas is the most recently observed number of replicas.')),
    fullyLabeledReplicas: int(
      'The number of pods that have labels matching the labels of the pod template of the replication controller.',
    ),
    readyReplicas: int('The number of ready replicas for this replication controller.'),
    availableReplicas: int(
      'The number of available replicas (ready for at least minReadySeconds) for this replication controller.',
    ),
    observedGeneration: int(
      'ObservedGeneration reflects the generation of the most recently observed replication controller.',
    ),
    conditions: listOf(c('ReplicationControllerCondition'), {
      mergeKey: 'type',
      description:
        "Represents the latest available observations of a replication controller's current state.",
    }),
  }),
  ReplicationControllerCondition: struct({
    type: required(str('Type of replication controller condition.')),
    status: required(
      enumOf(['True', 'False', 'Unknown'], 'Status of the condition, one of True, False, Unknown.'),
    ),
    lastTransitionTime: time(
      'The last time the condition transitioned from one status to another.',
    ),
    reason: str("The reason for the condition's last transition."),
    message: str('A human readable message indicating details about the transition.'),
  }),
})
