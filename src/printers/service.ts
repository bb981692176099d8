/** Tables for service networking: Service, Endpoints, EndpointSlice. */
import type { KubeObject } from '../apimachinery/types'
import {
  ageColumn,
  column,
  nameColumn,
  objectAge,
  objectName,
  selectorColumn,
  type Printer,
} from './columns'
import { firstThree, formatLabels, list } from './format'

interface ServicePort {
  port?: number
  nodePort?: number
  protocol?: string
}

interface Service extends KubeObject {
  spec?: {
    type?: string
    clusterIP?: string
    clusterIPs?: string[]
    externalIPs?: string[]
    externalName?: string
    ports?: ServicePort[]
    selector?: Record<string, string>
  }
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } }
}

interface Endpoints extends KubeObject {
  subsets?: Array<{
    addresses?: Array<{ ip?: string }>
    ports?: Array<{ port?: number }>
  }>
}

interface EndpointSlice extends KubeObject {
  addressType?: string
  ports?: Array<{ port?: number | null; name?: string | null }> | null
  endpoints?: Array<{ addresses?: string[] }> | null
}

/** spec.type defaults to ClusterIP in the API. */
function serviceType(svc: Service): string {
  return svc.spec?.type || 'ClusterIP'
}

/** Load-balancer ingress points, IP preferred over hostname, sorted and de-duplicated. */
function loadBalancerAddresses(svc: Service): string[] {
  const seen = new Set<string>()
  for (const ingress of list(svc.status?.loadBalancer?.ingress)) {
    const value = ingress.ip || ingress.hostname
    if (value) seen.add(value)
  }
  return [...seen].sort()
}

/**
 * External-IP: the external IPs for ClusterIP and NodePort services (`<none>` if there are none),
 * load-balancer ingress plus external IPs for LoadBalancer (`<pending>` until one is assigned),
 * and the DNS name for ExternalName.
 */
export function serviceExternalIP(svc: Service): string {
  const externalIPs = list(svc.spec?.externalIPs)
  switch (serviceType(svc)) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>'
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...externalIPs]
      return all.length > 0 ? all.join(',') : '<pending>'
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? ''
    default:
      return '<unknown>'
  }
}

/** Port(s): `80/TCP`, or `443:30443/TCP` when a node port is allocated, comma separated. */
export function servicePorts(svc: Service): string {
  const pieces = list(svc.spec?.ports).map((p) => {
    const protocol = p.protocol || 'TCP'
    const port = p.port ?? 0
    return p.nodePort && p.nodePort > 0
      ? `${port}:${p.nodePort}/${protocol}`
      : `${port}/${protocol}`
  })
  return pieces.length > 0 ? pieces.join(',') : '<none>'
}

export const servicePrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Type',
      'string',
      'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.',
    ),
    column('Cluster-IP', 'string', 'The IP address of the service inside the cluster.'),
    column(
      'External-IP',
      'string',
      'Addresses at which the service is reachable from outside the cluster.',
    ),
    column('Port(s)', 'string', 'The ports exposed by this service.'),
    ageColumn,
    selectorColumn('Pods with labels matching this selector receive the traffic.'),
  ],
  cells(obj, now) {
    const svc = obj as Service
    const clusterIP = list(svc.spec?.clusterIPs)[0] || svc.spec?.clusterIP || '<none>'
    return [
      objectName(svc),
      serviceType(svc),
      clusterIP,
      serviceExternalIP(svc),
      servicePorts(svc),
      objectAge(svc, now),
      formatLabels(svc.spec?.selector),
    ]
  },
}

/** `host:port`, bracketing IPv6 addresses. */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`
}

/** Ready addresses paired with each port (bare IPs for port-less headless subsets). */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = list(ep.subsets)
  if (subsets.length === 0) return '<none>'
  const items: string[] = []
  for (const subset of subsets) {
    const addresses = list(subset.addresses).map((a) => a.ip ?? '')
    const ports = list(subset.ports)
    if (ports.length === 0) {
      items.push(...addresses)
      continue
    }
    for (const port of ports) {
      for (const ip of addresses) items.push(hostPort(ip, port.port ?? 0))
    }
  }
  return firstThree(items, '')
}

export const endpointsPrinter: Printer = {
  columns: [
    nameColumn,
    column('Endpoints', 'string', 'Ready endpoint addresses and ports behind the service.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [objectName(obj), formatEndpoints(obj as Endpoints), objectAge(obj, now)]
  },
}

export const endpointSlicePrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'AddressType',
      'string',
      'The type of address carried by this slice: IPv4, IPv6 or FQDN.',
    ),
    column('Ports', 'string', 'Network ports exposed by each endpoint of the slice.'),
    column('Endpoints', 'string', 'Addresses of the endpoints in the slice.'),
    ageColumn,
  ],
  cells(obj, now) {
    const slice = obj as EndpointSlice
    // A port with neither number nor name stands for all ports.
    const ports = list(slice.ports).map((p) =>
      typeof p.port === 'number' ? String(p.port) : p.name != null ? p.name : '*',
    )
    const addresses = list(slice.endpoints).flatMap((e) => list(e.addresses))
    return [
      objectName(slice),
      slice.addressType ?? '',
      firstThree(ports, '<unset>'),
      firstThree(addresses, '<unset>'),
      objectAge(slice, now),
    ]
  },
}
