/**
 * Structural schema of policy/v1 (k8s.io/api/policy/v1): Eviction, the body of the pods/eviction
 * subresource, and PodDisruptionBudget, which evictions honour.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  META,
  POLICY,
  enumOf,
  group,
  int,
  intOrString,
  kind,
  listOf,
  mapOf,
  ref,
  required,
  struct,
  time,
} from './dsl'

const p = (name: string, description?: string) => ref(POLICY + name, description)

export const policyV1: SchemaSet = group(POLICY, {
  Eviction: kind(
    'Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod.',
    {
      deleteOptions: ref(META + 'DeleteOptions', 'DeleteOptions may be provided'),
    },
  ),
  PodDisruptionBudget: kind(
    'PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods',
    {
      spec: p(
        'PodDisruptionBudgetSpec',
        'Specification of the desired behavior of the PodDisruptionBudget.',
      ),
      status: p(
        'PodDisruptionBudgetStatus',
        'Most recently observed status of the PodDisruptionBudget.',
      ),
    },
  ),
  PodDisruptionBudgetSpec: struct({
    minAvailable: intOrString(
      'An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction.',
    ),
    selector: ref(
      META + 'LabelSelector',
      'Label query over pods whose evictions are managed by the disruption budget.',
    ),
    maxUnavailable: intOrString(
      'An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction.',
    ),
    unhealthyPodEvictionPolicy: enumOf(
      ['IfHealthyBudget', 'AlwaysAllow'],
      'UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered for eviction.',
    ),
  }),
  PodDisruptionBudgetStatus: struct({
    observedGeneration: int('Most recent generation observed when updating this PDB status.'),
    disruptedPods: mapOf(
      time(),
      'DisruptedPods contains information about pods whose eviction was processed by the API server eviction subresource handler but has not yet been observed by the PodDisruptionBudget controller.',
    ),
    disruptionsAllowed: required(int('Number of pod disruptions that are currently allowed.')),
    currentHealthy: required(int('current number of healthy pods')),
    desiredHealthy: required(int('minimum desired number of healthy pods')),
    expectedPods: required(int('total number of pods counted by this disruption budget')),
    conditions: listOf(ref(META + 'Condition'), {
      mergeKey: 'type',
      description: 'Conditions contain conditions for PDB.',
    }),
  }),
})
