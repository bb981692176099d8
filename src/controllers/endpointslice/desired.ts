import type { KubeObject } from '../../apimachinery/types'
import { findPort, servicePorts } from '../endpoints/ports'
import {
  hostnameFor,
  podIP,
  podReference,
  publishNotReadyAddresses,
  shouldPodBeInEndpoints,
} from '../endpoints/service-pods'
import { isPodReady, podNodeName } from '../shared/pods'
import { maxEndpointsPerSlice } from './resources'
import { stableStringify, type Json } from '../../apimachinery/json-value'

export interface SlicePort {
  name: string
  port: number
  protocol: string
  appProtocol?: string
}

/** The content of one slice: the ports its endpoints share, and the endpoints. */
export interface SliceContent {
  ports: SlicePort[]
  endpoints: Json[]
}

/**
 * podToEndpoint: serving follows readiness, terminating a deletion in progress, and ready is
 * serving but never while terminating (unless publishNotReadyAddresses makes every pod ready).
 */
export function podToEndpoint(pod: KubeObject, svc: KubeObject): Json {
  const publish = publishNotReadyAddresses(svc)
  const serving = publish || isPodReady(pod)
  const terminating = !!pod.metadata.deletionTimestamp
  const endpoint: Json = {
    addresses: [podIP(pod)],
    conditions: { ready: publish || (serving && !terminating), serving, terminating },
  }
  const hostname = hostnameFor(pod, svc)
  if (hostname) endpoint.hostname = hostname
  endpoint.targetRef = podReference(pod)
  const nodeName = podNodeName(pod)
  if (nodeName) endpoint.nodeName = nodeName
  return endpoint
}

/** getEndpointPorts: the service ports this pod resolves; a port name is always present, empty when unnamed. */
export function endpointPorts(pod: KubeObject, svc: KubeObject): SlicePort[] {
  const out: SlicePort[] = []
  for (const sp of servicePorts(svc)) {
    const port = findPort(pod, sp)
    if (port === undefined) continue
    const p: SlicePort = { name: sp.name ?? '', port, protocol: sp.protocol }
    if (sp.appProtocol !== undefined) p.appProtocol = sp.appProtocol
    out.push(p)
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.port - b.port))
}

const isIPv4 = (ip: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(ip)
const firstAddress = (e: Json) => String((e.addresses as string[])[0])

/**
 * The slices a service should have for its pods (IPv4 only, as the cluster is single-stack):
 * endpoints grouped by the ports they resolve, at most maxEndpointsPerSlice to a slice, sorted by
 * address so the same pods always give the same content. With no endpoints at all, one empty
 * placeholder slice, as upstream keeps for every selecting service.
 */
export function desiredSlices(svc: KubeObject, pods: readonly KubeObject[]): SliceContent[] {
  const groups = new Map<string, SliceContent>()
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true) || !isIPv4(podIP(pod))) continue
    const ports = endpointPorts(pod, svc)
    const key = stableStringify(ports)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { ports, endpoints: [] }))
    group.endpoints.push(podToEndpoint(pod, svc))
  }
  if (!groups.size) return [{ ports: [], endpoints: [] }]
  const out: SliceContent[] = []
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!
    const sorted = group.endpoints.sort((a, b) =>
      firstAddress(a) < firstAddress(b) ? -1 : firstAddress(a) > firstAddress(b) ? 1 : 0,
    )
    for (let i = 0; i < sorted.length; i += maxEndpointsPerSlice)
      out.push({ ports: group.ports, endpoints: sorted.slice(i, i + maxEndpointsPerSlice) })
  }
  return out
}
