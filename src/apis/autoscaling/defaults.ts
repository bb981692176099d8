/** autoscaling/v2 HorizontalPodAutoscaler defaults (pkg/apis/autoscaling/v2/defaults.go). */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** The CPU utilization an autoscaler with no metrics targets (autoscaling.DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80

const scaleUpRules = (): Json => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
})
// The scale-down window is left unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies.
const scaleDownRules = (): Json => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
})

/** The given rules over the defaults: each field set (an empty policy list included) wins. */
function withDefaults(rules: unknown, defaults: Json): Json {
  const given = asRecord(rules)
  const out = { ...defaults }
  for (const k of ['selectPolicy', 'stabilizationWindowSeconds', 'policies'])
    if (given[k] !== undefined && given[k] !== null) out[k] = given[k]
  return out
}

export function defaultHorizontalPodAutoscaler(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION },
        },
      },
    ]
  }
  if (spec.behavior !== undefined && spec.behavior !== null) {
    const behavior = asRecord(spec.behavior)
    spec.behavior = {
      ...behavior,
      scaleUp: withDefaults(behavior.scaleUp, scaleUpRules()),
      scaleDown: withDefaults(behavior.scaleDown, scaleDownRules()),
    }
  }
  obj.spec = spec
}
