/**
 * Structural schema of autoscaling/v1 Scale (k8s.io/api/autoscaling/v1), the body of the scale
 * subresource.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { AUTOSCALING, group, int, kind, ref, required, str, struct } from './dsl'

export const autoscalingV1: SchemaSet = group(AUTOSCALING, {
  Scale: kind('Scale represents a scaling request for a resource.', {
    spec: ref(AUTOSCALING + 'ScaleSpec', 'spec defines the behavior of the scale.'),
    status: ref(
      AUTOSCALING + 'ScaleStatus',
      'status is the current status of the scale. Read-only.',
    ),
  }),
  ScaleSpec: struct(
    { replicas: int('replicas is the desired number of instances for the scaled object.') },
    'ScaleSpec describes the attributes of a scale subresource.',
  ),
  ScaleStatus: struct(
    {
      replicas: required(
        int('replicas is the actual number of observed instances of the scaled object.'),
      ),
      selector: str(
        'selector is the label query over pods that should match the replicas count, in the serialized form of a label selector string.',
      ),
    },
    'ScaleStatus represents the current status of a scale subresource.',
  ),
})
