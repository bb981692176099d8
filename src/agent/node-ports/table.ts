/**
 * Which node ports a node opens and where each connection may go, from the Services and
 * Endpoints it watches: the pure half of the agent's NodePorts (kube-proxy's service map).
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  endpointTargets,
  hasNodePorts,
  type EndpointTarget,
  type ServiceSpec,
} from '../../apis/endpoint-targets'

export interface NodePortEntry {
  nodePort: number
  namespace: string
  service: string
  /** externalTrafficPolicy: Local — only this node's endpoints serve it */
  local: boolean
  /** the ready endpoints of the service port, on any node */
  endpoints: EndpointTarget[]
}

/**
 * Every TCP node port of the Services of type NodePort or LoadBalancer, with the ready endpoints
 * of its service port (pods of the Service's own namespace). `endpoints` is keyed `namespace/name`.
 */
export function nodePortTable(
  services: Iterable<KubeObject>,
  endpoints: Map<string, KubeObject>,
): Map<number, NodePortEntry> {
  const table = new Map<number, NodePortEntry>()
  for (const svc of services) {
    const spec = svc.spec as ServiceSpec | undefined
    if (!hasNodePorts(spec)) continue
    const namespace = svc.metadata.namespace ?? 'default'
    const service = svc.metadata.name ?? ''
    for (const port of spec?.ports ?? []) {
      if (!port.nodePort || (port.protocol ?? 'TCP') !== 'TCP' || table.has(port.nodePort)) continue
      const targets = endpointTargets(
        endpoints.get(`${namespace}/${service}`),
        port.name ?? '',
        namespace,
      ).filter((t) => t.namespace === namespace)
      table.set(port.nodePort, {
        nodePort: port.nodePort,
        namespace,
        service,
        local: spec?.externalTrafficPolicy === 'Local',
        endpoints: targets,
      })
    }
  }
  return table
}

/**
 * The endpoints a connection arriving on `node` may go to, in the order to try them: with
 * externalTrafficPolicy Local only the node's own, otherwise all; starting at `start` (a random
 * draw per connection) so that connections spread over them.
 */
export function candidates(entry: NodePortEntry, node: string, start: number): EndpointTarget[] {
  const usable = entry.local ? entry.endpoints.filter((t) => t.node === node) : entry.endpoints
  if (usable.length === 0) return []
  const at = ((start % usable.length) + usable.length) % usable.length
  return [...usable.slice(at), ...usable.slice(0, at)]
}

/**
 * The node ports to listen on: those with somewhere to go. A port without usable endpoints is
 * not opened, so a connection to it is refused, as kube-proxy rejects one to a Service without
 * endpoints (and, with externalTrafficPolicy Local, one to a node without its own).
 */
export function openPorts(table: Map<number, NodePortEntry>, node: string): Set<number> {
  const out = new Set<number>()
  for (const entry of table.values())
    if (candidates(entry, node, 0).length > 0) out.add(entry.nodePort)
  return out
}
