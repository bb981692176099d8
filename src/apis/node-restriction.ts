import type { KubeObject, Status } from '../apimachinery/types'
import { failure, qualifiedResource } from '../apimachinery/status'
import { jsonEqual } from '../apimachinery/json-value'
import type { ResourceDef } from './registry'

/**
 * The NodeRestriction checks that need the object as it will be stored (after a patch, against
 * the stored one), run by the store inside the write for requests a node makes.
 */
export interface NodeWriter {
  /** the node making the write */
  node: string
  /** for an event: the `Kind/namespace/name` the Worker checked is the node or a pod bound to it */
  eventSubject?: string
}

/** Labels a kubelet may set on its own Node (k8s.io/kubelet/pkg/apis: kubeletLabels). */
export const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
])
/** Label prefixes (and their subdomains) a kubelet may use freely. */
export const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io']
const nodeRestrictionNamespace = 'node-restriction.kubernetes.io'

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '')
const inNamespace = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`)

/** Whether a kubelet may set the label on its own Node (IsKubeletLabel). */
export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true
  const ns = labelNamespace(key)
  return kubeletLabelNamespaces.some((d) => inNamespace(ns, d))
}

/** Of the labels added, removed or changed, those a node may not touch, sorted (getForbiddenLabels). */
export function forbiddenNodeLabels(labels: Record<string, string> | undefined, old: Record<string, string> | undefined): string[] {
  const a = labels ?? {}
  const b = old ?? {}
  const modified = new Set<string>()
  for (const k of Object.keys(a)) if (a[k] !== b[k] || !(k in b)) modified.add(k)
  for (const k of Object.keys(b)) if (a[k] !== b[k] || !(k in a)) modified.add(k)
  const forbidden: string[] = []
  for (const key of modified) {
    const ns = labelNamespace(key)
    const kubernetesLabel = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io')
    if (inNamespace(ns, nodeRestrictionNamespace) || (kubernetesLabel && !isKubeletLabel(key))) forbidden.push(key)
  }
  return forbidden.sort()
}

/** The 403 for a node's write the stored object does not allow, or undefined. `old` is undefined on create. */
export function nodeWriteRefusal(def: ResourceDef, writer: NodeWriter, old: KubeObject | undefined, obj: KubeObject): Status | undefined {
  if (def.group !== '') return undefined
  const { node } = writer
  const name = obj.metadata.name ?? ''
  const refuse = (why: string) => failure(403, 'Forbidden', `${qualifiedResource(def.group, def.plural)} "${name}" is forbidden: ${why}`, { name, group: def.group, kind: def.plural })
  if (def.plural === 'nodes') {
    if (!old) {
      const labels = forbiddenNodeLabels(obj.metadata.labels, undefined)
      return labels.length ? refuse(`node "${node}" is not allowed to set the following labels: ${labels.join(', ')}`) : undefined
    }
    if (!jsonEqual(taints(obj) ?? [], taints(old) ?? [])) return refuse(`node "${node}" is not allowed to modify taints`)
    const labels = forbiddenNodeLabels(obj.metadata.labels, old.metadata.labels)
    return labels.length ? refuse(`is not allowed to modify labels: ${labels.join(', ')}`) : undefined
  }
  if (def.plural === 'events') {
    const verb = old ? 'update' : 'create'
    const about = (e: KubeObject) => eventSubject(e) === writer.eventSubject
    if (!writer.eventSubject || !about(obj) || (old && !about(old))) return refuse(`node "${node}" can only ${verb} events about itself or pods bound to it`)
  }
  return undefined
}

function taints(node: KubeObject): unknown {
  return (node.spec as { taints?: unknown } | undefined)?.taints
}

/** `Kind/namespace/name` of an event's involvedObject. */
export function eventSubject(event: KubeObject): string {
  const ref = ((event as { involvedObject?: unknown }).involvedObject ?? {}) as Record<string, unknown>
  const s = (v: unknown) => (typeof v === 'string' ? v : '')
  return `${s(ref.kind)}/${s(ref.namespace)}/${s(ref.name)}`
}
