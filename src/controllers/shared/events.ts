import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'

/** An event about `involved`, as kube-controller-manager's recorders emit one. */
export function event(
  involved: KubeObject,
  eventType: 'Normal' | 'Warning',
  reason: string,
  message: string,
): Action {
  return { type: 'event', involved, eventType, reason, message }
}
