/** IPv4 addresses and CIDR blocks as numbers, shared by the address allocators of the cluster and its nodes. */
import type { KubeObject } from './types'

export interface Cidr {
  /** the network address as an unsigned 32-bit number */
  base: number
  /** how many addresses the block spans */
  size: number
  /** the prefix length */
  prefix: number
  text: string
}

/** A dotted-quad IPv4 address in canonical form (no leading zeros), as a number. */
export function parseIPv4(s: string): number | undefined {
  const parts = s.split('.')
  if (parts.length !== 4) return undefined
  let n = 0
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined
    n = n * 256 + Number(p)
  }
  return n
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
}

/** An IPv4 CIDR such as `10.96.0.0/12`; host bits are masked off. */
export function parseCidr(s: string): Cidr | undefined {
  const [ip, bits, extra] = s.trim().split('/')
  if (extra !== undefined || ip === undefined || bits === undefined || !/^[0-9]{1,2}$/.test(bits))
    return undefined
  const prefix = Number(bits)
  const addr = parseIPv4(ip)
  if (addr === undefined || prefix > 32) return undefined
  const size = 2 ** (32 - prefix)
  const base = addr - (addr % size)
  return { base, size, prefix, text: `${formatIPv4(base)}/${prefix}` }
}

/** Whether `ip` lies inside `cidr`. */
export function cidrContains(cidr: Cidr, ip: string): boolean {
  const n = parseIPv4(ip)
  return n !== undefined && n >= cidr.base && n < cidr.base + cidr.size
}

/** The pod CIDRs a Node holds: spec.podCIDRs, else spec.podCIDR. */
export function podCidrsOf(node: KubeObject | undefined): string[] {
  const spec = (node?.spec ?? {}) as { podCIDR?: unknown; podCIDRs?: unknown }
  if (Array.isArray(spec.podCIDRs) && spec.podCIDRs.length)
    return spec.podCIDRs.filter((c): c is string => typeof c === 'string' && c !== '')
  return typeof spec.podCIDR === 'string' && spec.podCIDR ? [spec.podCIDR] : []
}
