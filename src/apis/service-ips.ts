import type { KubeObject, Status } from '../apimachinery/types'
import { invalid as invalidStatus } from '../apimachinery/status'
import { invalid, toStatusCause, type FieldCause } from '../apimachinery/field-errors'
import { formatIPv4, parseCidr, parseIPv4, type Cidr } from '../apimachinery/cidr'
import { asRecord, type Json } from '../apimachinery/json-value'

export { parseCidr }

/**
 * ClusterIP and NodePort allocation for Services, as kube-apiserver's service REST storage does on
 * create and update. The services store is the only writer of services, so the allocations in use
 * are read from its current objects inside the same synchronous write: no separate bitmap to keep
 * in step, and a deleted service releases its addresses simply by no longer being there.
 */

/** kube-apiserver's default --service-cluster-ip-range. */
export const defaultServiceClusterIpRange = '10.96.0.0/12'

/** kube-apiserver's default --service-node-port-range. */
export const nodePortRange = Object.freeze({ min: 30000, max: 32767 })

/**
 * The allocatable addresses of a range: all but the network and broadcast addresses (upstream's
 * bitmap allocator leaves them out of every range but the smallest).
 */
function usable(cidr: Cidr): { first: number; count: number } {
  if (cidr.size <= 2) return { first: cidr.base, count: cidr.size }
  return { first: cidr.base + 1, count: cidr.size - 2 }
}

/**
 * The size of the lower band reserved for addresses users pick themselves (KEP-3070): dynamic
 * allocation draws from above it first, so well-known addresses such as the DNS service's stay free.
 */
export function staticBandSize(count: number): number {
  const min = 16
  const max = 256
  const step = 16
  if (count < min) return 0
  return Math.max(min, Math.min(max, Math.floor(count / step)))
}

/** What the stored services hold. */
export interface InUse {
  ips: Set<string>
  nodePorts: Set<number>
}

/** The addresses and node ports of the stored services other than `skipKey` (`namespace/name`). */
export function inUseBy(services: Iterable<KubeObject>, skipKey?: string): InUse {
  const out: InUse = { ips: new Set(), nodePorts: new Set() }
  for (const svc of services) {
    if (
      skipKey !== undefined &&
      `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}` === skipKey
    )
      continue
    const spec = asRecord(svc.spec)
    const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]
    for (const ip of ips) if (typeof ip === 'string' && ip && ip !== 'None') out.ips.add(ip)
    for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
      const nodePort = asRecord(p).nodePort
      if (typeof nodePort === 'number' && nodePort > 0) out.nodePorts.add(nodePort)
    }
  }
  return out
}

/**
 * A free address of the range, or undefined when it is full. Starts at a random point of the upper
 * band and walks forward (wrapping), then tries the static band: O(used) expected, since the used
 * set is tiny against a /12.
 */
export function pickClusterIP(
  cidr: Cidr,
  used: ReadonlySet<string>,
  random: () => number = Math.random,
): string | undefined {
  const { first, count } = usable(cidr)
  const band = staticBandSize(count)
  const bands: [number, number][] = [
    [band, count - band],
    [0, band],
  ]
  for (const [start, length] of bands) {
    if (length <= 0) continue
    const offset = Math.floor(random() * length)
    for (let i = 0; i < length; i++) {
      const ip = formatIPv4(first + start + ((offset + i) % length))
      if (!used.has(ip)) return ip
    }
  }
  return undefined
}

/** A free node port, drawn as pickClusterIP draws addresses (the whole range is one band). */
export function pickNodePort(
  used: ReadonlySet<number>,
  random: () => number = Math.random,
): number | undefined {
  const length = nodePortRange.max - nodePortRange.min + 1
  const offset = Math.floor(random() * length)
  for (let i = 0; i < length; i++) {
    const port = nodePortRange.min + ((offset + i) % length)
    if (!used.has(port)) return port
  }
  return undefined
}

export interface AllocationOptions {
  range?: string
  random?: () => number
}

const needsClusterIP = (spec: Json) => (spec.type ?? 'ClusterIP') !== 'ExternalName'
const needsNodePorts = (spec: Json) => spec.type === 'NodePort' || spec.type === 'LoadBalancer'
const portKey = (p: Json) => `${typeof p.name === 'string' ? p.name : ''}`

/**
 * patchAllocatedValues: an update that leaves clusterIP (or a port's nodePort) empty keeps what was
 * allocated before, so a PUT or an apply that never mentions them does not reallocate. NodePorts are
 * matched by port name, as upstream.
 */
function keepAllocated(spec: Json, oldSpec: Json): void {
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if (!spec.clusterIP && (!Array.isArray(spec.clusterIPs) || !spec.clusterIPs.length)) {
      if (oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP
      if (oldSpec.clusterIPs !== undefined) spec.clusterIPs = oldSpec.clusterIPs
    }
    if (spec.clusterIP === oldSpec.clusterIP) {
      spec.ipFamilies ??= oldSpec.ipFamilies
      spec.ipFamilyPolicy ??= oldSpec.ipFamilyPolicy
    }
  }
  if (needsNodePorts(oldSpec) && needsNodePorts(spec)) {
    const old = new Map<string, unknown>()
    for (const p of Array.isArray(oldSpec.ports) ? (oldSpec.ports as Json[]) : [])
      old.set(portKey(asRecord(p)), asRecord(p).nodePort)
    for (const p of Array.isArray(spec.ports) ? (spec.ports as Json[]) : []) {
      if (p && typeof p === 'object' && !p.nodePort && old.get(portKey(p)))
        p.nodePort = old.get(portKey(p))
    }
  }
}

/** Sets the address family fields of a single-stack IPv4 cluster, rejecting anything else. */
function assignFamilies(spec: Json, headlessWithoutSelector: boolean): FieldCause[] {
  const causes: FieldCause[] = []
  const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : []
  families.forEach((f, i) => {
    if (f !== 'IPv4')
      causes.push(invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'))
  })
  // A headless service without a selector takes whatever families the cluster has.
  const policy =
    spec.ipFamilyPolicy ?? (headlessWithoutSelector ? 'RequireDualStack' : 'SingleStack')
  if (policy === 'RequireDualStack' && !headlessWithoutSelector)
    causes.push(
      invalid(
        'spec.ipFamilyPolicy',
        policy,
        'this cluster is not configured for dual-stack services',
      ),
    )
  spec.ipFamilyPolicy = policy
  spec.ipFamilies = families.length ? families : ['IPv4']
  return causes
}

function assignClusterIP(
  spec: Json,
  cidr: Cidr,
  inUse: InUse,
  old: Json | undefined,
  random?: () => number,
): FieldCause[] {
  const ips = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : []
  const wanted =
    typeof spec.clusterIP === 'string' && spec.clusterIP
      ? spec.clusterIP
      : typeof ips[0] === 'string'
        ? ips[0]
        : ''
  if (spec.clusterIP && ips.length && ips[0] !== spec.clusterIP)
    return [invalid('spec.clusterIPs[0]', ips[0], 'must match `clusterIP` if specified')]
  if (ips.length > 1)
    return [invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family')]
  const oldIP = old && needsClusterIP(old) ? old.clusterIP : undefined
  if (typeof oldIP === 'string' && oldIP && wanted !== oldIP)
    return [invalid('spec.clusterIPs[0]', wanted, 'may not change once set')]
  const families = assignFamilies(
    spec,
    wanted === 'None' && !Object.keys(asRecord(spec.selector)).length,
  )
  if (families.length) return families
  if (wanted === 'None' || wanted === oldIP) {
    spec.clusterIP = wanted
    spec.clusterIPs = [wanted]
    return []
  }
  if (wanted) {
    const n = parseIPv4(wanted)
    if (n === undefined)
      return [
        invalid(
          'spec.clusterIPs[0]',
          wanted,
          'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      ]
    const { first, count } = usable(cidr)
    const why =
      n < first || n >= first + count
        ? `the provided IP (${wanted}) is not in the valid range. The range of valid IPs is ${cidr.text}`
        : inUse.ips.has(wanted)
          ? 'provided IP is already allocated'
          : undefined
    if (why)
      return [invalid('spec.clusterIPs', [wanted], `failed to allocate IP ${wanted}: ${why}`)]
    spec.clusterIP = wanted
    spec.clusterIPs = [wanted]
    return []
  }
  const ip = pickClusterIP(cidr, inUse.ips, random)
  if (!ip) return [invalid('spec.clusterIPs', [], 'failed to allocate a serviceIP: range is full')]
  spec.clusterIP = ip
  spec.clusterIPs = [ip]
  return []
}

function assignNodePorts(
  spec: Json,
  inUse: InUse,
  old: Json | undefined,
  random?: () => number,
): FieldCause[] {
  const causes: FieldCause[] = []
  const ports = Array.isArray(spec.ports) ? (spec.ports as Json[]) : []
  // A port number the service already held stays its own (and one port may serve TCP and UDP alike).
  const own = new Set<number>()
  for (const p of Array.isArray(old?.ports) ? (old.ports as Json[]) : [])
    if (typeof asRecord(p).nodePort === 'number') own.add(asRecord(p).nodePort as number)
  const taken = new Set(inUse.nodePorts)
  const mine = new Set<number>()
  ports.forEach((p, i) => {
    const nodePort = p?.nodePort
    if (typeof nodePort !== 'number' || nodePort === 0 || mine.has(nodePort)) return
    const at = `spec.ports[${i}].nodePort`
    if (nodePort < nodePortRange.min || nodePort > nodePortRange.max) {
      causes.push(
        invalid(
          at,
          nodePort,
          `provided port is not in the valid range. The range of valid ports is ${nodePortRange.min}-${nodePortRange.max}`,
        ),
      )
    } else if (taken.has(nodePort) && !own.has(nodePort)) {
      causes.push(invalid(at, nodePort, 'provided port is already allocated'))
    }
    mine.add(nodePort)
    taken.add(nodePort)
  })
  if (causes.length) return causes
  for (const p of ports) {
    if (!p || typeof p !== 'object' || (typeof p.nodePort === 'number' && p.nodePort > 0)) continue
    const port = pickNodePort(taken, random)
    if (port === undefined)
      return [invalid('spec.ports', [], 'failed to allocate a nodePort: range is full')]
    p.nodePort = port
    taken.add(port)
  }
  return causes
}

/**
 * Assigns a Service's clusterIP(s), address families and node ports in place (old: the stored
 * service on an update), checking requested values against the `services` already stored. Returns
 * the 422 to answer with when a requested value cannot be had.
 */
export function allocateServiceAddresses(
  obj: KubeObject,
  old: KubeObject | undefined,
  services: Iterable<KubeObject>,
  opts: AllocationOptions = {},
): FieldCause[] {
  if (!obj.spec || typeof obj.spec !== 'object') return []
  const spec = obj.spec as Json
  const oldSpec = old ? asRecord(old.spec) : undefined
  if (oldSpec) keepAllocated(spec, oldSpec)
  const cidr =
    parseCidr(opts.range || defaultServiceClusterIpRange) ??
    parseCidr(defaultServiceClusterIpRange)!
  const inUse = inUseBy(services, `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`)
  const causes: FieldCause[] = []
  if (needsClusterIP(spec)) causes.push(...assignClusterIP(spec, cidr, inUse, oldSpec, opts.random))
  if (needsNodePorts(spec)) causes.push(...assignNodePorts(spec, inUse, oldSpec, opts.random))
  return causes
}

function* parsed(rows: Iterable<{ value: string }>): Generator<KubeObject> {
  for (const row of rows) yield JSON.parse(row.value) as KubeObject
}

/**
 * The Service strategy's allocation in the store: allocates on create (`old` undefined) and keeps
 * allocations on update; `rows` lists the stored services lazily. Returns a 422 Status when
 * allocation fails.
 */
export function serviceAddressesFor(
  obj: KubeObject,
  old: KubeObject | undefined,
  rows: () => Iterable<{ value: string }>,
  range?: string,
): Status | undefined {
  const causes = allocateServiceAddresses(obj, old, parsed(rows()), { range })
  if (!causes.length) return undefined
  return invalidStatus('', 'Service', obj.metadata.name ?? '', causes.map(toStatusCause))
}
