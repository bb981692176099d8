/** autoscaling HorizontalPodAutoscaler: its strategy. */
import type { KindStrategy } from '../kind-strategy'
import { defaultHorizontalPodAutoscaler } from './defaults'
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatus,
} from './validate-hpa'

export const horizontalPodAutoscalerStrategy: KindStrategy = {
  defaults: defaultHorizontalPodAutoscaler,
  validate: validateHorizontalPodAutoscaler,
  validateStatus: validateHorizontalPodAutoscalerStatus,
}
