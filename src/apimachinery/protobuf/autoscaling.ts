import { ObjectMeta } from './meta'
import { int, msg, str, type Table } from './schema'

/** autoscaling/v1 HorizontalPodAutoscaler (what `kubectl autoscale` sends). Status is the server's to write. */
export const HorizontalPodAutoscalerV1: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: msg('scaleTargetRef', () => ({ 1: str('kind'), 2: str('name'), 3: str('apiVersion') })),
    2: int('minReplicas', { keep: true }),
    3: int('maxReplicas', { keep: true }),
    4: int('targetCPUUtilizationPercentage', { keep: true }),
  })),
  3: msg('status', () => ({})),
}
