import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** core/v1 Taint and Toleration, as read from node.spec.taints and pod.spec.tolerations. */
export interface Taint {
  key: string
  value?: string
  effect: string
  timeAdded?: string
}

export interface Toleration {
  key?: string
  operator?: string
  value?: string
  effect?: string
  tolerationSeconds?: number | null
}

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready'
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable'
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable'
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure'
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure'
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure'
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable'

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

export function nodeTaints(node: KubeObject): Taint[] {
  const taints = asRecord(node.spec).taints
  if (!Array.isArray(taints)) return []
  return taints.filter(
    (t): t is Taint => !!t && typeof t === 'object' && typeof (t as Json).key === 'string',
  )
}

export function podTolerations(pod: KubeObject): Toleration[] {
  const tolerations = asRecord(pod.spec).tolerations
  return Array.isArray(tolerations)
    ? (tolerations.filter((t) => t && typeof t === 'object') as Toleration[])
    : []
}

/**
 * Toleration.ToleratesTaint: an empty effect matches every effect, an empty key (only valid with
 * Exists) matches every key, Exists ignores the value and Equal (the default) compares it.
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (str(toleration.effect) !== '' && toleration.effect !== taint.effect) return false
  if (str(toleration.key) !== '' && toleration.key !== taint.key) return false
  switch (str(toleration.operator)) {
    case '':
    case 'Equal':
      return str(toleration.value) === str(taint.value)
    case 'Exists':
      return true
    default:
      return false
  }
}

export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[],
  taint: Taint,
): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint))
}

/** The first taint passing `filter` that no toleration tolerates, as the scheduler reports it. */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  filter: (t: Taint) => boolean,
): Taint | undefined {
  return taints.find((t) => filter(t) && !tolerationsTolerateTaint(tolerations, t))
}

/** Same key and effect: how upstream decides two taints are the same taint (values aside). */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect
}

/** The condition-derived taints this controller owns, keyed by the condition that implies them. */
const conditionTaints: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
}

const readyTaintKeys = new Set([TAINT_NOT_READY, TAINT_UNREACHABLE])

/** The condition-derived NoSchedule taints and the Ready-derived NoExecute ones are ours to add and remove. */
function isManaged(t: Taint): boolean {
  if (t.effect === 'NoExecute') return readyTaintKeys.has(t.key)
  if (t.effect !== 'NoSchedule') return false
  return (
    t.key === TAINT_UNSCHEDULABLE ||
    Object.values(conditionTaints).some((m) => Object.values(m).includes(t.key))
  )
}

export interface ConditionLike {
  type: string
  status: string
}

/**
 * The taints a node should carry for its conditions and spec.unschedulable, as the node lifecycle
 * controller's NoSchedule and NoExecute tainting passes derive them. Without a Ready condition the
 * Ready-derived taints are left as they are: such a node has not reported yet, and its kubelet
 * registers it with the not-ready taint precisely so that nothing lands on it before it does.
 */
export function desiredManagedTaints(
  conditions: readonly ConditionLike[],
  unschedulable: boolean,
): { want: Taint[]; keepReadyTaints: boolean } {
  const want: Taint[] = []
  let hasReady = false
  for (const c of conditions) {
    const key = conditionTaints[c.type]?.[c.status]
    if (c.type === 'Ready') hasReady = true
    if (!key) continue
    want.push({ key, effect: 'NoSchedule' })
    if (c.type === 'Ready') want.push({ key, effect: 'NoExecute' })
  }
  if (unschedulable) want.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' })
  return { want, keepReadyTaints: !hasReady }
}

/**
 * The node's taints after adding the wanted managed taints (stamped with `timeAdded`) and removing
 * the managed ones no longer wanted. Taints set by anyone else are kept untouched and in place, and a
 * wanted taint already present keeps its original timeAdded, which eviction deadlines count from.
 */
export function reconcileTaints(
  current: readonly Taint[],
  conditions: readonly ConditionLike[],
  unschedulable: boolean,
  timeAdded: string,
): { taints: Taint[]; changed: boolean } {
  const { want, keepReadyTaints } = desiredManagedTaints(conditions, unschedulable)
  const keep = (t: Taint) =>
    !isManaged(t) ||
    want.some((w) => sameTaint(w, t)) ||
    (keepReadyTaints && readyTaintKeys.has(t.key))
  const taints = current.filter(keep)
  let changed = taints.length !== current.length
  for (const w of want) {
    if (taints.some((t) => sameTaint(t, w))) continue
    taints.push({ ...w, timeAdded })
    changed = true
  }
  return { taints, changed }
}
