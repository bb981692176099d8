import type { KubeObject } from '../../apimachinery/types'
import { isPodReady, podNodeName } from '../shared/pods'
import { findPort, servicePorts } from './ports'
import {
  hostnameFor,
  isHeadless,
  podIP,
  podReference,
  publishNotReadyAddresses,
  shouldPodBeInEndpoints,
} from './service-pods'
import type { Json } from '../../apimachinery/json-value'

export interface EndpointAddress {
  ip: string
  hostname?: string
  nodeName?: string
  targetRef: Json
}

export interface EndpointPort {
  name?: string
  port: number
  protocol: string
  appProtocol?: string
}

export interface EndpointSubset {
  addresses?: EndpointAddress[]
  notReadyAddresses?: EndpointAddress[]
  ports?: EndpointPort[]
}

/** podToEndpointAddressForService, with the hostname when the pod names the service as its subdomain. */
export function endpointAddress(pod: KubeObject, svc: KubeObject): EndpointAddress {
  const address: EndpointAddress = { ip: podIP(pod), targetRef: podReference(pod) }
  const hostname = hostnameFor(pod, svc)
  if (hostname) address.hostname = hostname
  const nodeName = podNodeName(pod)
  if (nodeName) address.nodeName = nodeName
  return address
}

const portKey = (p: EndpointPort) =>
  `${p.name ?? ''}\u0000${p.port}\u0000${p.protocol}\u0000${p.appProtocol ?? ''}`
const addressKey = (a: EndpointAddress) => `${a.ip}\u0000${String(a.targetRef.uid ?? '')}`

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return a.ip < b.ip
    ? -1
    : a.ip > b.ip
      ? 1
      : String(a.targetRef.uid ?? '') < String(b.targetRef.uid ?? '')
        ? -1
        : 1
}

interface Member {
  address: EndpointAddress
  ready: boolean
  ports: Map<string, EndpointPort>
}

/**
 * endpoints.RepackSubsets: one subset per distinct set of ports, holding every address (ready or
 * not) that serves exactly that set. Addresses are sorted by IP, ports and subsets by a stable key,
 * so the same pods always yield the same subsets and an unchanged service is never rewritten.
 */
export function repack(members: Iterable<Member>): EndpointSubset[] {
  const groups = new Map<
    string,
    { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }
  >()
  for (const m of members) {
    const ports = [...m.ports.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const key = ports.map(([k]) => k).join('\u0001')
    let group = groups.get(key)
    if (!group)
      groups.set(key, (group = { ports: ports.map(([, p]) => p), ready: [], notReady: [] }))
    ;(m.ready ? group.ready : group.notReady).push(m.address)
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, g]) => {
      const subset: EndpointSubset = {}
      if (g.ready.length) subset.addresses = g.ready.sort(compareAddresses)
      if (g.notReady.length) subset.notReadyAddresses = g.notReady.sort(compareAddresses)
      if (g.ports.length) subset.ports = g.ports
      return subset
    })
}

/**
 * The subsets the Endpoints controller's syncService computes for a service from its pods: each
 * pod with an IP (and not terminating, unless publishNotReadyAddresses) is an address, ready or
 * not, for every service port its containers resolve; a headless service without ports lists
 * addresses with no ports.
 */
export function computeSubsets(svc: KubeObject, pods: readonly KubeObject[]): EndpointSubset[] {
  const tolerateUnready = publishNotReadyAddresses(svc)
  const ports = servicePorts(svc)
  const members = new Map<string, Member>()
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue
    const address = endpointAddress(pod, svc)
    const ready = tolerateUnready || isPodReady(pod)
    const member: Member = { address, ready, ports: new Map() }
    if (!ports.length) {
      if (isHeadless(svc)) members.set(addressKey(address), member)
      continue
    }
    for (const sp of ports) {
      const port = findPort(pod, sp)
      if (port === undefined) continue
      const ep: EndpointPort = { port, protocol: sp.protocol }
      if (sp.name !== undefined) ep.name = sp.name
      if (sp.appProtocol !== undefined) ep.appProtocol = sp.appProtocol
      member.ports.set(portKey(ep), ep)
    }
    if (member.ports.size) members.set(addressKey(address), member)
  }
  return repack(members.values())
}
