import type { KubeObject } from '../apimachinery/types'

/**
 * A write a node makes: the NodeRestriction checks that need the object as it will be stored
 * (after a patch, against the stored one) are the node's and event's strategies' (core/nodes.ts,
 * core/events.ts), run by the store inside the write.
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

const labelNamespace = (key: string): string =>
  key.includes('/') ? key.slice(0, key.indexOf('/')) : ''
const inNamespace = (ns: string, domain: string): boolean =>
  ns === domain || ns.endsWith(`.${domain}`)

/** Whether a kubelet may set the label on its own Node (IsKubeletLabel). */
export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true
  const ns = labelNamespace(key)
  return kubeletLabelNamespaces.some((d) => inNamespace(ns, d))
}

/** Of the labels added, removed or changed, those a node may not touch, sorted (getForbiddenLabels). */
export function forbiddenNodeLabels(
  labels: Record<string, string> | undefined,
  old: Record<string, string> | undefined,
): string[] {
  const a = labels ?? {}
  const b = old ?? {}
  const modified = new Set<string>()
  for (const k of Object.keys(a)) if (a[k] !== b[k] || !(k in b)) modified.add(k)
  for (const k of Object.keys(b)) if (a[k] !== b[k] || !(k in a)) modified.add(k)
  const forbidden: string[] = []
  for (const key of modified) {
    const ns = labelNamespace(key)
    const kubernetesLabel = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io')
    if (inNamespace(ns, nodeRestrictionNamespace) || (kubernetesLabel && !isKubeletLabel(key)))
      forbidden.push(key)
  }
  return forbidden.sort()
}

/** `Kind/namespace/name` of an event's involvedObject. */
export function eventSubject(event: KubeObject): string {
  const ref = ((event as { involvedObject?: unknown }).involvedObject ?? {}) as Record<
    string,
    unknown
  >
  const s = (v: unknown) => (typeof v === 'string' ? v : '')
  return `${s(ref.kind)}/${s(ref.namespace)}/${s(ref.name)}`
}
