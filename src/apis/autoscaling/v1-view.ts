/**
 * autoscaling/v1 HorizontalPodAutoscaler as a view of the stored autoscaling/v2 object
 * (pkg/apis/autoscaling/v1/conversion.go): v1 holds one metric, the average CPU utilization target,
 * as targetCPUUtilizationPercentage. Other metrics, the behavior and the conditions have no v1
 * field; a write through v1 keeps them from the stored object.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

export const hpaGroup = 'autoscaling'
export const hpaV1ApiVersion = 'autoscaling/v1'
export const hpaV2ApiVersion = 'autoscaling/v2'

const isCpuUtilization = (metric: unknown): boolean => {
  const m = asRecord(metric)
  const resource = asRecord(m.resource)
  return (
    m.type === 'Resource' &&
    resource.name === 'cpu' &&
    asRecord(resource.target).type === 'Utilization'
  )
}

const defined = (o: Json): Json =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

/** A stored autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1 shows it. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const spec = asRecord(v2.spec)
  const status = asRecord(v2.status)
  const cpu = (Array.isArray(spec.metrics) ? spec.metrics : []).find(isCpuUtilization)
  const currentCpu = (Array.isArray(status.currentMetrics) ? status.currentMetrics : []).find(
    (m) => asRecord(m).type === 'Resource' && asRecord(asRecord(m).resource).name === 'cpu',
  )
  const out: KubeObject = {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: hpaV1ApiVersion,
    metadata: v2.metadata,
    spec: defined({
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      targetCPUUtilizationPercentage: cpu
        ? asRecord(asRecord(asRecord(cpu).resource).target).averageUtilization
        : undefined,
    }),
  }
  if (v2.status !== undefined) {
    out.status = defined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: currentCpu
        ? asRecord(asRecord(asRecord(currentCpu).resource).current).averageUtilization
        : undefined,
    })
  }
  return out
}

/**
 * An autoscaling/v1 HorizontalPodAutoscaler (created, or replacing `stored`) as the autoscaling/v2
 * object to store: targetCPUUtilizationPercentage becomes the CPU utilization metric, and the
 * stored object's other metrics, behavior and status conditions and metrics are kept.
 */
export function hpaFromV1(v1: Json, stored?: KubeObject): KubeObject {
  const spec = asRecord(v1.spec)
  const storedSpec = asRecord(stored?.spec)
  const target = spec.targetCPUUtilizationPercentage
  const others = (Array.isArray(storedSpec.metrics) ? storedSpec.metrics : []).filter(
    (m) => !isCpuUtilization(m),
  )
  const cpu =
    target === undefined || target === null
      ? []
      : [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } },
          },
        ]
  const out: KubeObject = {
    ...(v1 as KubeObject),
    apiVersion: hpaV2ApiVersion,
    kind: 'HorizontalPodAutoscaler',
    spec: defined({
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metrics: [...cpu, ...others],
      behavior: storedSpec.behavior,
    }),
  }
  if (v1.status !== undefined && v1.status !== null) {
    const status = asRecord(v1.status)
    const storedStatus = asRecord(stored?.status)
    out.status = defined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentMetrics: storedStatus.currentMetrics,
      conditions: storedStatus.conditions,
    })
  } else if (stored?.status !== undefined) {
    out.status = stored.status
  }
  return out
}
