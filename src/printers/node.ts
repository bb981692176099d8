/** The Node table: readiness and cordon state, roles from labels, and node system info. */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { list, record } from './format'

interface Node extends KubeObject {
  spec?: { unschedulable?: boolean }
  status?: {
    conditions?: Array<{ type?: string; status?: string }>
    addresses?: Array<{ type?: string; address?: string }>
    nodeInfo?: {
      kubeletVersion?: string
      osImage?: string
      kernelVersion?: string
      containerRuntimeVersion?: string
    }
  }
}

/** `node-role.kubernetes.io/<role>` labels name roles by key; the older form names it by value. */
const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/'
const LEGACY_ROLE_LABEL = 'kubernetes.io/role'

/** `Ready`, `NotReady` or `Unknown`, then `SchedulingDisabled` for a cordoned node. */
export function nodeStatus(node: Node): string {
  const parts: string[] = []
  const ready = list(node.status?.conditions).find((c) => c.type === 'Ready')
  if (ready) parts.push(ready.status === 'True' ? 'Ready' : 'NotReady')
  else parts.push('Unknown')
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled')
  return parts.join(',')
}

/** Sorted, de-duplicated roles, or `<none>`. */
export function nodeRoles(node: Node): string {
  const roles = new Set<string>()
  for (const [key, value] of Object.entries(record(node.metadata?.labels))) {
    if (key.startsWith(ROLE_LABEL_PREFIX)) {
      const role = key.slice(ROLE_LABEL_PREFIX.length)
      if (role) roles.add(role)
    } else if (key === LEGACY_ROLE_LABEL && value) {
      roles.add(value)
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',')
}

function address(node: Node, type: string): string {
  return list(node.status?.addresses).find((a) => a.type === type)?.address || '<none>'
}

function orUnknown(value: string | undefined): string {
  return value ? value : '<unknown>'
}

export const nodePrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version', 'string', 'Kubelet version reported by the node.'),
    column('Internal-IP', 'string', 'The first InternalIP address of the node.', 1),
    column('External-IP', 'string', 'The first ExternalIP address of the node.', 1),
    column('OS-Image', 'string', 'OS image reported by the node.', 1),
    column('Kernel-Version', 'string', 'Kernel version reported by the node.', 1),
    column('Container-Runtime', 'string', 'Container runtime and version reported by the node.', 1),
  ],
  cells(obj, now) {
    const node = obj as Node
    const info = node.status?.nodeInfo ?? {}
    return [
      objectName(node),
      nodeStatus(node),
      nodeRoles(node),
      objectAge(node, now),
      info.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      orUnknown(info.osImage),
      orUnknown(info.kernelVersion),
      orUnknown(info.containerRuntimeVersion),
    ]
  },
}
