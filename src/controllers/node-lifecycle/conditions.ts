import type { KubeObject } from '../../apimachinery/types'
import { nodeConditions } from './heartbeat'
import type { Json } from '../../apimachinery/json-value'

/** The conditions the kubelet owns and that go Unknown when it stops reporting. */
export const MONITORED_CONDITIONS = [
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
] as const

export const REASON_STATUS_UNKNOWN = 'NodeStatusUnknown'
export const MESSAGE_STATUS_UNKNOWN = 'Kubelet stopped posting node status.'
export const REASON_NEVER_UPDATED = 'NodeStatusNeverUpdated'
export const MESSAGE_NEVER_UPDATED = 'Kubelet never posted node status.'

/**
 * The node's conditions once its kubelet is declared unreachable: each monitored condition becomes
 * Unknown (keeping its last heartbeat, so the silence stays visible), and one the kubelet never
 * posted is added as NeverUpdated. Conditions already Unknown are left as they are, so a second
 * pass changes nothing and writes nothing.
 */
export function markConditionsUnknown(
  node: KubeObject,
  nowTime: string,
): { conditions: Json[]; changed: boolean } {
  const conditions = nodeConditions(node).map((c) => ({ ...c }))
  let changed = false
  for (const type of MONITORED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type)
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        lastHeartbeatTime: node.metadata.creationTimestamp ?? nowTime,
        lastTransitionTime: nowTime,
        reason: REASON_NEVER_UPDATED,
        message: MESSAGE_NEVER_UPDATED,
      })
      changed = true
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown'
      c.reason = REASON_STATUS_UNKNOWN
      c.message = MESSAGE_STATUS_UNKNOWN
      c.lastTransitionTime = nowTime
      changed = true
    }
  }
  return { conditions, changed }
}
