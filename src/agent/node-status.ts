/**
 * Pure: the Node object an agent registers and the status it reports, as kubelet's node status
 * setters produce them (labels, capacity, addresses, nodeInfo, the four standard conditions).
 */
import type { KubeObject } from '../apimachinery/types'
import { canonical } from './pod-status'
import { formatTime } from '../apimachinery/meta-time'

export const KUBELET_VERSION = 'v1.32.0-edgeplane'
/** kubelet re-posts an unchanged status this often (nodeStatusReportFrequency). */
export const NODE_STATUS_REPORT_MS = 5 * 60_000

export interface NodeIdentity {
  name: string
  /** labels from the command line, applied over the defaults */
  labels: Record<string, string>
  /** cpu, memory, pods (and optionally ephemeral-storage), as quantities */
  capacity: Record<string, string>
  internalIP: string
  hostname: string
  info: {
    machineID: string
    systemUUID: string
    bootID: string
    kernelVersion: string
    osImage: string
    containerRuntimeVersion: string
    operatingSystem: string
    architecture: string
  }
  instanceType?: string
  /** annotations the agent keeps on its Node (the local-path root) */
  annotations?: Record<string, string>
  /** the images on the node (a container engine's), largest first and capped as kubelet caps them */
  images?: { names: string[]; sizeBytes: number }[]
}

export interface NodeCondition {
  type: string
  status: 'True' | 'False' | 'Unknown'
  lastHeartbeatTime?: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

export interface NodeStatus {
  capacity?: Record<string, string>
  allocatable?: Record<string, string>
  conditions?: NodeCondition[]
  addresses?: { type: string; address: string }[]
  nodeInfo?: Record<string, string>
  [field: string]: unknown
}

/** The labels kubelet sets on its own Node, plus the configured ones. */
export function nodeLabels(id: NodeIdentity): Record<string, string> {
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': id.info.architecture,
    'beta.kubernetes.io/os': id.info.operatingSystem,
    'kubernetes.io/arch': id.info.architecture,
    'kubernetes.io/hostname': id.hostname,
    'kubernetes.io/os': id.info.operatingSystem,
  }
  if (id.instanceType) {
    labels['node.kubernetes.io/instance-type'] = id.instanceType
    labels['beta.kubernetes.io/instance-type'] = id.instanceType
  }
  return { ...labels, ...id.labels }
}

const CONDITIONS: [type: string, healthy: 'True' | 'False', reason: string, message: string][] = [
  [
    'MemoryPressure',
    'False',
    'KubeletHasSufficientMemory',
    'kubelet has sufficient memory available',
  ],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
]

/** The node's status now; conditions keep their transition time while their status holds. */
export function nodeStatus(id: NodeIdentity, now: number, previous?: NodeStatus): NodeStatus {
  const t = formatTime(now)
  const conditions: NodeCondition[] = CONDITIONS.map(([type, status, reason, message]) => {
    const before = previous?.conditions?.find((c) => c.type === type)
    const lastTransitionTime =
      before && before.status === status && before.lastTransitionTime
        ? before.lastTransitionTime
        : t
    return { type, status, lastHeartbeatTime: t, lastTransitionTime, reason, message }
  })
  // Conditions other components add (e.g. NetworkUnavailable) are carried over.
  for (const c of previous?.conditions ?? [])
    if (!CONDITIONS.some(([type]) => type === c.type)) conditions.push(c)
  const status: NodeStatus = {
    capacity: { ...id.capacity },
    allocatable: { ...id.capacity },
    conditions,
    addresses: [
      { type: 'InternalIP', address: id.internalIP },
      { type: 'Hostname', address: id.hostname },
    ],
    nodeInfo: { ...id.info, kubeletVersion: KUBELET_VERSION, kubeProxyVersion: '' },
  }
  if (id.images) status.images = id.images
  return status
}

/** The Node to create when none exists. */
export function nodeObject(id: NodeIdentity, now: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: nodeLabels(id),
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', ...id.annotations },
    },
    spec: {},
    status: nodeStatus(id, now),
  }
}

/** The status without heartbeat times, for telling a real change from a heartbeat. */
function withoutHeartbeats(status: NodeStatus | undefined): string {
  if (!status) return ''
  const conditions = (status.conditions ?? []).map(({ lastHeartbeatTime: _h, ...rest }) => rest)
  const { capacity, allocatable, addresses, nodeInfo, images } = status
  return canonical({ capacity, allocatable, addresses, nodeInfo, conditions, images })
}

/** Whether to post `next`: something other than heartbeat times changed, or the last post is 5 minutes old. */
export function shouldPostNodeStatus(
  current: NodeStatus | undefined,
  next: NodeStatus,
  lastPostMs: number | undefined,
  now: number,
): boolean {
  if (lastPostMs === undefined || now - lastPostMs >= NODE_STATUS_REPORT_MS) return true
  return withoutHeartbeats(current) !== withoutHeartbeats(next)
}

/** The labels to add or correct on an existing Node (labels set by others are left alone). */
export function labelPatch(
  current: Record<string, string> | undefined,
  wanted: Record<string, string>,
): Record<string, string> | undefined {
  const patch: Record<string, string> = {}
  for (const [k, v] of Object.entries(wanted)) if (current?.[k] !== v) patch[k] = v
  return Object.keys(patch).length ? patch : undefined
}
