/**
 * What each metric source gives when no metrics API is served: the resource metrics API
 * (metrics.k8s.io), the custom metrics API (custom.metrics.k8s.io) and the external metrics API
 * (external.metrics.k8s.io) are all absent, so every metric fails as upstream's replica
 * calculator fails without them, and metric-driven scaling never happens.
 */
import { asRecord, type Json } from '../../apimachinery/json-value'

export interface MetricFailure {
  /** the reason of the ScalingActive=False condition and of the Warning event */
  reason: string
  /** the error the event carries and the condition quotes */
  error: string
  /** the error as computeReplicasForMetric wraps it (the first one is quoted by FailedComputeMetricsReplicas) */
  wrapped: string
}

const noResourceMetrics =
  'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)'
const noCustomMetrics =
  'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered'

const isSet = (v: unknown) => v !== undefined && v !== null

export function metricFailure(spec: Json, namespace: string): MetricFailure {
  switch (spec.type) {
    case 'Resource':
    case 'ContainerResource': {
      const container = spec.type === 'ContainerResource'
      const src = asRecord(container ? spec.containerResource : spec.resource)
      const name = String(src.name ?? '')
      const target = asRecord(src.target)
      const inner = `unable to get metrics for resource ${name}: ${noResourceMetrics}`
      const error = isSet(target.averageValue)
        ? `failed to get ${name} usage: ${inner}`
        : isSet(target.averageUtilization)
          ? `failed to get ${name} utilization: ${inner}`
          : 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set'
      return {
        reason: container ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric',
        error,
        wrapped: container
          ? `failed to get ${String(src.container ?? '')} container metric value: ${error}`
          : `failed to get ${name} resource metric value: ${error}`,
      }
    }
    case 'Pods': {
      const name = String(asRecord(asRecord(spec.pods).metric).name ?? '')
      const error = `unable to get metric ${name}: ${noCustomMetrics}`
      return {
        reason: 'FailedGetPodsMetric',
        error,
        wrapped: `failed to get pods metric value: ${error}`,
      }
    }
    case 'Object': {
      const src = asRecord(spec.object)
      const name = String(asRecord(src.metric).name ?? '')
      const described = asRecord(src.describedObject)
      const inner = `unable to get metric ${name}: ${String(described.kind ?? '')} on ${namespace} ${String(described.name ?? '')}/${noCustomMetrics}`
      const error = isSet(asRecord(src.target).averageValue)
        ? `failed to get ${name} object metric: ${inner}`
        : inner
      return {
        reason: 'FailedGetObjectMetric',
        error,
        wrapped: `failed to get object metric value: ${error}`,
      }
    }
    case 'External': {
      const src = asRecord(spec.external)
      const name = String(asRecord(src.metric).name ?? '')
      const inner = `unable to get external metric ${namespace}/${name}/nil: unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${name}.external.metrics.k8s.io)`
      const error = isSet(asRecord(src.target).averageValue)
        ? `failed to get ${name} external metric: ${inner}`
        : `failed to get external metric ${name}: ${inner}`
      return { reason: 'FailedGetExternalMetric', error, wrapped: error }
    }
    default: {
      const error = `unknown metric source type "${String(spec.type ?? '')}"`
      return { reason: 'InvalidMetricSourceType', error, wrapped: error }
    }
  }
}
