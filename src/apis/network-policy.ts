import type { KubeObject } from '../apimachinery/types'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../apimachinery/field-errors'
import { isValidPortName, isValidPortNum } from '../apimachinery/field-formats'
import { validateMetaLabelSelector } from './validation/selectors'
import { parseCidr } from '../apimachinery/cidr'
import { asRecord, type Json } from '../apimachinery/json-value'

/**
 * networking.k8s.io/v1 NetworkPolicy: stored, defaulted and validated as kube-apiserver does.
 * No node runtime enforces it yet, and every policy says so in an annotation `kubectl describe`
 * shows, and in a warning on every write.
 */
export const enforcementAnnotation = 'networking.edgeplane.dev/enforced'
export const notEnforced =
  'false: no node runtime enforces NetworkPolicy yet; this policy does not restrict any traffic'
export const notEnforcedWarning =
  'NetworkPolicy is stored but not enforced: no node runtime restricts traffic by NetworkPolicy yet'

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** SetDefaults_NetworkPolicy and _NetworkPolicyPort, plus the not-enforced annotation. */
export function defaultNetworkPolicy(obj: KubeObject): void {
  const spec = asRecord((obj.spec ??= {}))
  spec.podSelector ??= {}
  for (const rule of [...asList(spec.ingress), ...asList(spec.egress)]) {
    for (const port of asList(asRecord(rule).ports)) {
      const p = asRecord(port)
      if (p === port && (p.protocol === undefined || p.protocol === null)) p.protocol = 'TCP'
    }
  }
  if (!asList(spec.policyTypes).length)
    spec.policyTypes = asList(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress']
  obj.metadata.annotations = { ...obj.metadata.annotations, [enforcementAnnotation]: notEnforced }
}

/** ValidateNetworkPolicySpec, in upstream's order. */
export function validateNetworkPolicy(obj: KubeObject): FieldCause[] {
  const spec = asRecord(obj.spec)
  const causes = validateMetaLabelSelector(spec.podSelector, 'spec.podSelector')
  for (const [direction, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    asList(spec[direction]).forEach((rule, i) => {
      const at = `spec.${direction}[${i}]`
      asList(asRecord(rule).ports).forEach((p, j) =>
        causes.push(...validatePort(asRecord(p), `${at}.ports[${j}]`)),
      )
      asList(asRecord(rule)[peers]).forEach((p, j) =>
        causes.push(...validatePeer(asRecord(p), `${at}.${peers}[${j}]`)),
      )
    })
  }
  const types = asList(spec.policyTypes)
  if (types.length > 2)
    return [
      ...causes,
      invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'),
    ]
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress')
      causes.push(notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']))
  })
  return causes
}

function validatePort(port: Json, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  const protocols = ['TCP', 'UDP', 'SCTP']
  if (
    port.protocol !== undefined &&
    port.protocol !== null &&
    !protocols.includes(String(port.protocol))
  )
    causes.push(notSupported(`${at}.protocol`, port.protocol, protocols))
  const endPort = port.endPort as number | undefined | null
  if (port.port === undefined || port.port === null) {
    if (endPort != null)
      causes.push(
        invalid(`${at}.endPort`, endPort, 'may not be specified when `port` is not specified'),
      )
  } else if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port)) causes.push(invalid(`${at}.port`, port.port, m))
    if (endPort != null) {
      if (endPort < port.port)
        causes.push(invalid(`${at}.endPort`, port.port, 'must be greater than or equal to `port`'))
      for (const m of isValidPortNum(endPort)) causes.push(invalid(`${at}.endPort`, endPort, m))
    }
  } else {
    if (endPort != null)
      causes.push(
        invalid(`${at}.endPort`, endPort, 'may not be specified when `port` is non-numeric'),
      )
    for (const m of isValidPortName(String(port.port)))
      causes.push(invalid(`${at}.port`, port.port, m))
  }
  return causes
}

function validatePeer(peer: Json, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  let peers = 0
  for (const key of ['podSelector', 'namespaceSelector'] as const) {
    if (peer[key] === undefined || peer[key] === null) continue
    peers++
    causes.push(...validateMetaLabelSelector(peer[key], `${at}.${key}`))
  }
  const ipBlock = peer.ipBlock
  if (ipBlock !== undefined && ipBlock !== null) {
    peers++
    causes.push(...validateIpBlock(asRecord(ipBlock), `${at}.ipBlock`))
  }
  if (!peers) causes.push(required(at, 'must specify a peer'))
  else if (peers > 1 && ipBlock != null)
    causes.push(forbidden(at, 'may not specify both ipBlock and another peer'))
  return causes
}

function validateIpBlock(block: Json, at: string): FieldCause[] {
  const cidr = typeof block.cidr === 'string' ? block.cidr : ''
  if (!cidr) return [required(`${at}.cidr`)]
  const outer = parseAnyCidr(cidr)
  if (!outer) return [invalid(`${at}.cidr`, cidr, 'not a valid CIDR')]
  const causes: FieldCause[] = []
  for (const [i, e] of asList(block.except).entries()) {
    const inner = parseAnyCidr(String(e))
    if (!inner) return [...causes, invalid(`${at}.except[${i}]`, e, 'not a valid CIDR')]
    if (!strictSubset(inner, outer))
      causes.push(invalid(`${at}.except[${i}]`, e, 'must be a strict subset of `cidr`'))
  }
  return causes
}

/** An IPv4 or IPv6 prefix as a number and its length (host bits of the address are kept, as ParseCIDRSloppy's IP). */
interface Prefix {
  bits: 32 | 128
  ip: bigint
  length: number
}

function parseAnyCidr(s: string): Prefix | undefined {
  const slash = s.indexOf('/')
  if (slash < 0) return undefined
  const length = Number(s.slice(slash + 1))
  if (!/^\d{1,3}$/.test(s.slice(slash + 1))) return undefined
  const addr = s.slice(0, slash)
  if (!addr.includes(':')) {
    const v4 = parseCidr(s)
    if (!v4) return undefined
    const parts = addr.split('.').map(Number)
    return {
      bits: 32,
      ip: BigInt(((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0),
      length,
    }
  }
  const ip = parseIPv6(addr)
  return ip === undefined || length > 128 ? undefined : { bits: 128, ip, length }
}

function parseIPv6(s: string): bigint | undefined {
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const groups = (h: string) => (h ? h.split(':') : [])
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0))
    return undefined
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  let out = 0n
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
    out = (out << 16n) | BigInt(parseInt(g, 16))
  }
  return out
}

/** net.IPNet.Contains(except.IP) and a longer mask: `inner` lies strictly inside `outer`. */
function strictSubset(inner: Prefix, outer: Prefix): boolean {
  if (inner.bits !== outer.bits || inner.length <= outer.length) return false
  const hostBits = BigInt(outer.bits - outer.length)
  return inner.ip >> hostBits === outer.ip >> hostBits
}
