/**
 * Structural schema of autoscaling/v2 HorizontalPodAutoscaler (k8s.io/api/autoscaling/v2), the
 * version HorizontalPodAutoscalers are stored in.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  META,
  enumOf,
  group,
  int,
  kind,
  listOf,
  quantity,
  ref,
  required,
  str,
  struct,
  time,
} from './dsl'

const AUTOSCALING_V2 = 'io.k8s.api.autoscaling.v2.'
const a = (name: string, description?: string) => ref(AUTOSCALING_V2 + name, description)
const metricTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource']

/** CrossVersionObjectReference, the same in autoscaling/v1 and v2. */
export const crossVersionObjectReference = () =>
  struct(
    {
      kind: required(str('kind is the kind of the referent')),
      name: required(str('name is the name of the referent')),
      apiVersion: str('apiVersion is the API version of the referent'),
    },
    'CrossVersionObjectReference contains enough information to let you identify the referred resource.',
  )

/** MetricSpec and MetricStatus: a type, and one field per metric source holding its `<Kind>Metric<Source|Status>`. */
const byMetricType = (suffix: 'Source' | 'Status', description: string) =>
  struct(
    {
      type: required(enumOf(metricTypes, 'type is the type of metric source.')),
      object: a(
        `ObjectMetric${suffix}`,
        'object refers to a metric describing a single kubernetes object.',
      ),
      pods: a(
        `PodsMetric${suffix}`,
        'pods refers to a metric describing each pod in the current scale target.',
      ),
      resource: a(
        `ResourceMetric${suffix}`,
        'resource refers to a resource metric known to Kubernetes describing each pod in the current scale target.',
      ),
      containerResource: a(
        `ContainerResourceMetric${suffix}`,
        'containerResource refers to a resource metric known to Kubernetes describing a single container in each pod of the current scale target.',
      ),
      external: a(
        `ExternalMetric${suffix}`,
        'external refers to a global metric that is not associated with any Kubernetes object.',
      ),
    },
    description,
  )

export const autoscalingV2: SchemaSet = group(AUTOSCALING_V2, {
  HorizontalPodAutoscaler: kind(
    'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically manages the replica count of any resource implementing the scale subresource based on the metrics specified.',
    {
      spec: a(
        'HorizontalPodAutoscalerSpec',
        'spec is the specification for the behaviour of the autoscaler.',
      ),
      status: a(
        'HorizontalPodAutoscalerStatus',
        'status is the current information about the autoscaler.',
      ),
    },
  ),
  HorizontalPodAutoscalerSpec: struct(
    {
      scaleTargetRef: required(
        a(
          'CrossVersionObjectReference',
          'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
        ),
      ),
      minReplicas: int(
        'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down. It defaults to 1 pod.',
      ),
      maxReplicas: required(
        int(
          'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
        ),
      ),
      metrics: listOf(
        a('MetricSpec'),
        'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used). If not set, the default metric will be set to 80% average CPU utilization.',
      ),
      behavior: a(
        'HorizontalPodAutoscalerBehavior',
        'behavior configures the scaling behavior of the target in both Up and Down directions (scaleUp and scaleDown fields respectively).',
      ),
    },
    'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.',
  ),
  CrossVersionObjectReference: crossVersionObjectReference(),
  MetricSpec: byMetricType(
    'Source',
    'MetricSpec specifies how to scale based on a single metric (only `type` and one other matching field should be set at once).',
  ),
  ObjectMetricSource: struct(
    {
      describedObject: required(
        a(
          'CrossVersionObjectReference',
          'describedObject specifies the descriptions of a object,such as kind,name apiVersion',
        ),
      ),
      target: required(a('MetricTarget', 'target specifies the target value for the given metric')),
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
    },
    'ObjectMetricSource indicates how to scale on a metric describing a kubernetes object.',
  ),
  PodsMetricSource: struct(
    {
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
      target: required(a('MetricTarget', 'target specifies the target value for the given metric')),
    },
    'PodsMetricSource indicates how to scale on a metric describing each pod in the current scale target.',
  ),
  ResourceMetricSource: struct(
    {
      name: required(str('name is the name of the resource in question.')),
      target: required(a('MetricTarget', 'target specifies the target value for the given metric')),
    },
    'ResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as specified in requests and limits.',
  ),
  ContainerResourceMetricSource: struct(
    {
      name: required(str('name is the name of the resource in question.')),
      target: required(a('MetricTarget', 'target specifies the target value for the given metric')),
      container: required(
        str('container is the name of the container in the pods of the scaling target'),
      ),
    },
    'ContainerResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as specified in requests and limits, describing a single container in each pod of the current scale target.',
  ),
  ExternalMetricSource: struct(
    {
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
      target: required(a('MetricTarget', 'target specifies the target value for the given metric')),
    },
    'ExternalMetricSource indicates how to scale on a metric not associated with any Kubernetes object.',
  ),
  MetricIdentifier: struct(
    {
      name: required(str('name is the name of the given metric')),
      selector: ref(
        META + 'LabelSelector',
        'selector is the string-encoded form of a standard kubernetes label selector for the given metric.',
      ),
    },
    'MetricIdentifier defines the name and optionally selector for a metric',
  ),
  MetricTarget: struct(
    {
      type: required(
        enumOf(
          ['AverageValue', 'Utilization', 'Value'],
          'type represents whether the metric type is Utilization, Value, or AverageValue',
        ),
      ),
      value: quantity('value is the target value of the metric (as a quantity).'),
      averageValue: quantity(
        'averageValue is the target value of the average of the metric across all relevant pods (as a quantity)',
      ),
      averageUtilization: int(
        'averageUtilization is the target value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods.',
      ),
    },
    'MetricTarget defines the target value, average value, or average utilization of a specific metric',
  ),
  HorizontalPodAutoscalerBehavior: struct(
    {
      scaleUp: a('HPAScalingRules', 'scaleUp is scaling policy for scaling Up.'),
      scaleDown: a('HPAScalingRules', 'scaleDown is scaling policy for scaling Down.'),
    },
    'HorizontalPodAutoscalerBehavior configures the scaling behavior of the target in both Up and Down directions (scaleUp and scaleDown fields respectively).',
  ),
  HPAScalingRules: struct(
    {
      stabilizationWindowSeconds: int(
        'stabilizationWindowSeconds is the number of seconds for which past recommendations should be considered while scaling up or scaling down.',
      ),
      selectPolicy: str(
        'selectPolicy is used to specify which policy should be used. If not set, the default value Max is used.',
      ),
      policies: listOf(
        a('HPAScalingPolicy'),
        'policies is a list of potential scaling polices which can be used during scaling.',
      ),
    },
    'HPAScalingRules configures the scaling behavior for one direction.',
  ),
  HPAScalingPolicy: struct(
    {
      type: required(str('type is used to specify the scaling policy.')),
      value: required(
        int(
          'value contains the amount of change which is permitted by the policy. It must be greater than zero',
        ),
      ),
      periodSeconds: required(
        int('periodSeconds specifies the window of time for which the policy should hold true.'),
      ),
    },
    'HPAScalingPolicy is a single policy which must hold true for a specified past interval.',
  ),
  HorizontalPodAutoscalerStatus: struct(
    {
      observedGeneration: int(
        'observedGeneration is the most recent generation observed by this autoscaler.',
      ),
      lastScaleTime: time(
        'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods, used by the autoscaler to control how often the number of pods is changed.',
      ),
      currentReplicas: int(
        'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
      ),
      desiredReplicas: required(
        int(
          'desiredReplicas is the desired number of replicas of pods managed by this autoscaler, as last calculated by the autoscaler.',
        ),
      ),
      currentMetrics: listOf(
        a('MetricStatus'),
        'currentMetrics is the last read state of the metrics used by this autoscaler.',
      ),
      conditions: listOf(a('HorizontalPodAutoscalerCondition'), {
        mergeKey: 'type',
        description:
          'conditions is the set of conditions required for this autoscaler to scale its target, and indicates whether or not those conditions are met.',
      }),
    },
    'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.',
  ),
  HorizontalPodAutoscalerCondition: struct(
    {
      type: required(str('type describes the current condition')),
      status: required(str('status is the status of the condition (True, False, Unknown)')),
      lastTransitionTime: time(
        'lastTransitionTime is the last time the condition transitioned from one status to another',
      ),
      reason: str("reason is the reason for the condition's last transition."),
      message: str(
        'message is a human-readable explanation containing details about the transition',
      ),
    },
    'HorizontalPodAutoscalerCondition describes the state of a HorizontalPodAutoscaler at a certain point.',
  ),
  MetricStatus: byMetricType(
    'Status',
    'MetricStatus describes the last-read state of a single metric.',
  ),
  ObjectMetricStatus: struct(
    {
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
      current: required(
        a('MetricValueStatus', 'current contains the current value for the given metric'),
      ),
      describedObject: required(
        a(
          'CrossVersionObjectReference',
          'DescribedObject specifies the descriptions of a object,such as kind,name apiVersion',
        ),
      ),
    },
    'ObjectMetricStatus indicates the current value of a metric describing a kubernetes object.',
  ),
  PodsMetricStatus: struct(
    {
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
      current: required(
        a('MetricValueStatus', 'current contains the current value for the given metric'),
      ),
    },
    'PodsMetricStatus indicates the current value of a metric describing each pod in the current scale target.',
  ),
  ResourceMetricStatus: struct(
    {
      name: required(str('name is the name of the resource in question.')),
      current: required(
        a('MetricValueStatus', 'current contains the current value for the given metric'),
      ),
    },
    'ResourceMetricStatus indicates the current value of a resource metric known to Kubernetes.',
  ),
  ContainerResourceMetricStatus: struct(
    {
      name: required(str('name is the name of the resource in question.')),
      current: required(
        a('MetricValueStatus', 'current contains the current value for the given metric'),
      ),
      container: required(
        str('container is the name of the container in the pods of the scaling target'),
      ),
    },
    'ContainerResourceMetricStatus indicates the current value of a resource metric known to Kubernetes, describing a single container in each pod in the current scale target.',
  ),
  ExternalMetricStatus: struct(
    {
      metric: required(
        a('MetricIdentifier', 'metric identifies the target metric by name and selector'),
      ),
      current: required(
        a('MetricValueStatus', 'current contains the current value for the given metric'),
      ),
    },
    'ExternalMetricStatus indicates the current value of a global metric not associated with any Kubernetes object.',
  ),
  MetricValueStatus: struct(
    {
      value: quantity('value is the current value of the metric (as a quantity).'),
      averageValue: quantity(
        'averageValue is the current value of the average of the metric across all relevant pods (as a quantity)',
      ),
      averageUtilization: int(
        'currentAverageUtilization is the current value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods.',
      ),
    },
    'MetricValueStatus holds the current value for a metric',
  ),
})
