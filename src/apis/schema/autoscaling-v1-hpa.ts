/**
 * Structural schema of autoscaling/v1 HorizontalPodAutoscaler (k8s.io/api/autoscaling/v1): the
 * CPU-only view of the stored autoscaling/v2 objects.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { AUTOSCALING, group, int, kind, ref, required, struct, time } from './dsl'
import { crossVersionObjectReference } from './autoscaling-v2'

export const autoscalingV1Hpa: SchemaSet = group(AUTOSCALING, {
  HorizontalPodAutoscaler: kind('configuration of a horizontal pod autoscaler.', {
    spec: ref(
      AUTOSCALING + 'HorizontalPodAutoscalerSpec',
      'spec defines the behaviour of autoscaler.',
    ),
    status: ref(
      AUTOSCALING + 'HorizontalPodAutoscalerStatus',
      'status is the current information about the autoscaler.',
    ),
  }),
  HorizontalPodAutoscalerSpec: struct(
    {
      scaleTargetRef: required(
        ref(
          AUTOSCALING + 'CrossVersionObjectReference',
          'reference to scaled resource; horizontal pod autoscaler will learn the current resource consumption and will set the desired number of pods by using its Scale subresource.',
        ),
      ),
      minReplicas: int(
        'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down. It defaults to 1 pod.',
      ),
      maxReplicas: required(
        int(
          'maxReplicas is the upper limit for the number of pods that can be set by the autoscaler; cannot be smaller than MinReplicas.',
        ),
      ),
      targetCPUUtilizationPercentage: int(
        'targetCPUUtilizationPercentage is the target average CPU utilization (represented as a percentage of requested CPU) over all the pods; if not specified the default autoscaling policy will be used.',
      ),
    },
    'specification of a horizontal pod autoscaler.',
  ),
  CrossVersionObjectReference: crossVersionObjectReference(),
  HorizontalPodAutoscalerStatus: struct(
    {
      observedGeneration: int(
        'observedGeneration is the most recent generation observed by this autoscaler.',
      ),
      lastScaleTime: time(
        'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods; used by the autoscaler to control how often the number of pods is changed.',
      ),
      currentReplicas: required(
        int(
          'currentReplicas is the current number of replicas of pods managed by this autoscaler.',
        ),
      ),
      desiredReplicas: required(
        int(
          'desiredReplicas is the  desired number of replicas of pods managed by this autoscaler.',
        ),
      ),
      currentCPUUtilizationPercentage: int(
        'currentCPUUtilizationPercentage is the current average CPU utilization over all pods, represented as a percentage of requested CPU.',
      ),
    },
    'current status of a horizontal pod autoscaler',
  ),
})
