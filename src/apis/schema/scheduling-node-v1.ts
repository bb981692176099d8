/**
 * Structural schema of scheduling.k8s.io/v1 PriorityClass and node.k8s.io/v1 RuntimeClass
 * (k8s.io/api/scheduling/v1, k8s.io/api/node/v1).
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  CORE,
  bool,
  enumOf,
  group,
  int,
  kind,
  listOf,
  mapOf,
  quantity,
  ref,
  required,
  str,
  struct,
} from './dsl'

export const SCHEDULING = 'io.k8s.api.scheduling.v1.'
export const NODE = 'io.k8s.api.node.v1.'

export const schedulingV1: SchemaSet = group(SCHEDULING, {
  PriorityClass: kind(
    'PriorityClass defines mapping from a priority class name to the priority integer value. The value can be any valid integer.',
    {
      value: required(
        int(
          'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
        ),
      ),
      globalDefault: bool(
        'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`.',
      ),
      description: str(
        'description is an arbitrary string that usually provides guidelines on when this priority class should be used.',
      ),
      preemptionPolicy: enumOf(
        ['Never', 'PreemptLowerPriority'],
        'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
      ),
    },
  ),
})

export const nodeV1: SchemaSet = group(NODE, {
  RuntimeClass: kind(
    'RuntimeClass defines a class of container runtime supported in the cluster. The RuntimeClass is used to determine which container runtime is used to run all containers in a pod.',
    {
      handler: required(
        str(
          'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.',
        ),
      ),
      overhead: ref(
        NODE + 'Overhead',
        'overhead represents the resource overhead associated with running a pod for a given RuntimeClass.',
      ),
      scheduling: ref(
        NODE + 'Scheduling',
        'scheduling holds the scheduling constraints to ensure that pods running with this RuntimeClass are scheduled to nodes that support it.',
      ),
    },
  ),
  Overhead: struct({
    podFixed: mapOf(
      quantity(),
      'podFixed represents the fixed resource overhead associated with running a pod.',
    ),
  }),
  Scheduling: struct({
    nodeSelector: mapOf(
      str(),
      'nodeSelector lists labels that must be present on nodes that support this RuntimeClass.',
    ),
    tolerations: listOf(ref(CORE + 'Toleration'), {
      listType: 'atomic',
      description:
        'tolerations are appended (excluding duplicates) to pods running with this RuntimeClass during admission.',
    }),
  }),
})
