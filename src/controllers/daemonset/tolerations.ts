import type { Toleration } from '../node-lifecycle/taints'
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
} from '../node-lifecycle/taints'
import type { Json } from '../../apimachinery/json-value'

/**
 * AddOrUpdateDaemonPodTolerations: daemon pods stay through not-ready and unreachable nodes (no
 * tolerationSeconds: never evicted for it), and go to nodes under pressure or cordoned; host
 * network pods also to nodes whose network is not yet up (they are often what brings it up).
 */
export function daemonTolerations(podSpec: Json): Toleration[] {
  const defaults: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ]
  if (podSpec.hostNetwork === true)
    defaults.push({ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' })
  return defaults
}

/** v1helper.AddOrUpdateTolerationInPodSpec for each default: one with the same key, operator and effect is replaced. */
export function withDaemonTolerations(podSpec: Json): Toleration[] {
  const existing = Array.isArray(podSpec.tolerations)
    ? [...(podSpec.tolerations as Toleration[])]
    : []
  for (const t of daemonTolerations(podSpec)) {
    const i = existing.findIndex(
      (e) => e.key === t.key && (e.operator ?? 'Equal') === t.operator && e.effect === t.effect,
    )
    if (i >= 0) existing[i] = t
    else existing.push(t)
  }
  return existing
}
