import type { KubeObject } from '../apimachinery/types'

/** A ready endpoint of a service port: the pod, the node that runs it and the port it listens on. */
export interface EndpointTarget {
  node: string
  podUid: string
  namespace: string
  pod: string
  port: number
}

export interface ServicePort {
  name?: string
  port: number
  protocol?: string
  targetPort?: number | string
  nodePort?: number
}

export interface ServiceSpec {
  type?: string
  ports?: ServicePort[]
  externalTrafficPolicy?: string
}

interface Subset {
  addresses?: Array<{
    ip: string
    nodeName?: string
    targetRef?: { kind?: string; name?: string; namespace?: string; uid?: string }
  }>
  ports?: Array<{ name?: string; port: number }>
}

/**
 * The ready addresses of an Endpoints object for the service port named `portName` ("" for an
 * unnamed port), each as the pod it is; addresses that name no pod or no node are left out, and so
 * are those naming a pod of another namespace than the Service's (`namespace`): a Service reaches
 * only its own namespace's pods, whoever wrote its Endpoints.
 */
export function endpointTargets(
  eps: KubeObject | undefined,
  portName: string,
  namespace: string,
): EndpointTarget[] {
  const targets: EndpointTarget[] = []
  for (const subset of (eps as { subsets?: Subset[] } | undefined)?.subsets ?? []) {
    const p = (subset.ports ?? []).find((sp) => (sp.name ?? '') === portName)
    if (!p) continue
    for (const a of subset.addresses ?? []) {
      if (!a.nodeName || a.targetRef?.kind !== 'Pod' || !a.targetRef.name) continue
      if (a.targetRef.namespace && a.targetRef.namespace !== namespace) continue
      targets.push({
        node: a.nodeName,
        podUid: a.targetRef.uid ?? '',
        namespace,
        pod: a.targetRef.name,
        port: p.port,
      })
    }
  }
  return targets
}

/** Service types that open their node ports on every node (upstream: NodePort and LoadBalancer). */
export function hasNodePorts(spec: ServiceSpec | undefined): boolean {
  return spec?.type === 'NodePort' || spec?.type === 'LoadBalancer'
}

/** The TCP service port that owns `nodePort`, when the Service has node ports. */
export function nodePortOf(
  spec: ServiceSpec | undefined,
  nodePort: number,
): ServicePort | undefined {
  if (!hasNodePorts(spec)) return undefined
  return (spec?.ports ?? []).find((p) => p.nodePort === nodePort && (p.protocol ?? 'TCP') === 'TCP')
}
