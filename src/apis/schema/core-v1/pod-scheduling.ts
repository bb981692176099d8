/** A pod's scheduling constraints in core/v1: node and pod affinity, tolerations, topology spread. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, int, listOf, required, str, struct } from '../dsl'
import { c, m, strings } from './shorthands'

export const coreV1PodScheduling: SchemaSet = group(CORE, {
  Affinity: struct({
    nodeAffinity: c('NodeAffinity', 'Describes node affinity scheduling rules for the pod.'),
    podAffinity: c(
      'PodAffinity',
      'Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s)).',
    ),
    podAntiAffinity: c(
      'PodAntiAffinity',
      'Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).',
    ),
  }),
  NodeAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: c(
      'NodeSelector',
      'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
    ),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(
      c('PreferredSchedulingTerm'),
      'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field.',
    ),
  }),
  NodeSelector: struct({
    nodeSelectorTerms: required(
      listOf(c('NodeSelectorTerm'), 'Required. A list of node selector terms. The terms are ORed.'),
    ),
  }),
  NodeSelectorTerm: struct({
    matchExpressions: listOf(
      c('NodeSelectorRequirement'),
      "A list of node selector requirements by node's labels.",
    ),
    matchFields: listOf(
      c('NodeSelectorRequirement'),
      "A list of node selector requirements by node's fields.",
    ),
  }),
  NodeSelectorRequirement: struct({
    key: required(str('The label key that the selector applies to.')),
    operator: required(
      enumOf(
        ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'],
        "Represents a key's relationship to a set of values.",
      ),
    ),
    values: strings('An array of string values.'),
  }),
  PreferredSchedulingTerm: struct({
    weight: required(
      int(
        'Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.',
      ),
    ),
    preference: required(
      c('NodeSelectorTerm', 'A node selector term, associated with the corresponding weight.'),
    ),
  }),
  PodAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: listOf(
      c('PodAffinityTerm'),
      'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
    ),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(
      c('WeightedPodAffinityTerm'),
      'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field.',
    ),
  }),
  PodAntiAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: listOf(
      c('PodAffinityTerm'),
      'If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
    ),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(
      c('WeightedPodAffinityTerm'),
      'The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field.',
    ),
  }),
  PodAffinityTerm: struct({
    labelSelector: m('LabelSelector', 'A label query over a set of resources, in this case pods.'),
    namespaces: strings(
      'namespaces specifies a static list of namespace names that the term applies to.',
    ),
    topologyKey: required(
      str(
        'This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces.',
      ),
    ),
    namespaceSelector: m(
      'LabelSelector',
      'A label query over the set of namespaces that the term applies to.',
    ),
    matchLabelKeys: strings(
      'MatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.',
    ),
    mismatchLabelKeys: strings(
      'MismatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.',
    ),
  }),
  WeightedPodAffinityTerm: struct({
    weight: required(
      int('weight associated with matching the corresponding podAffinityTerm, in the range 1-100.'),
    ),
    podAffinityTerm: required(
      c(
        'PodAffinityTerm',
        'Required. A pod affinity term, associated with the corresponding weight.',
      ),
    ),
  }),
  Toleration: struct(
    {
      key: str(
        'Key is the taint key that the toleration applies to. Empty means match all taint keys.',
      ),
      operator: enumOf(
        ['Exists', 'Equal'],
        "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal.",
      ),
      value: str('Value is the taint value the toleration matches to.'),
      effect: enumOf(
        ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
        'Effect indicates the taint effect to match. Empty means match all taint effects.',
      ),
      tolerationSeconds: int(
        'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute) tolerates the taint.',
      ),
    },
    'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect>.',
  ),
  TopologySpreadConstraint: struct({
    maxSkew: required(
      int('MaxSkew describes the degree to which pods may be unevenly distributed.'),
    ),
    topologyKey: required(str('TopologyKey is the key of node labels.')),
    whenUnsatisfiable: required(
      enumOf(
        ['DoNotSchedule', 'ScheduleAnyway'],
        "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint.",
      ),
    ),
    labelSelector: m('LabelSelector', 'LabelSelector is used to find matching pods.'),
    minDomains: int('MinDomains indicates a minimum number of eligible domains.'),
    nodeAffinityPolicy: enumOf(
      ['Honor', 'Ignore'],
      "NodeAffinityPolicy indicates how we will treat Pod's nodeAffinity/nodeSelector when calculating pod topology spread skew.",
    ),
    nodeTaintsPolicy: enumOf(
      ['Honor', 'Ignore'],
      'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew.',
    ),
    matchLabelKeys: strings(
      'MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated.',
    ),
  }),
})
