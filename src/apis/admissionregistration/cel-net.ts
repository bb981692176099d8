/**
 * Kubernetes' IP and CIDR CEL libraries (k8s.io/apiserver/pkg/cel/library ip.go and cidr.go):
 * `ip(string)`, `isIP`, `ip.isCanonical`, `family`, `isUnspecified`, `isLoopback`,
 * `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast`; `cidr(string)`, `isCIDR`,
 * `containsIP`, `containsCIDR`, `ip()`, `prefixLength`, `masked`; `string()` of either and `==`.
 * Parsing is Go's netip (`cel-netip.ts`); zones and IPv4-mapped IPv6 addresses are refused.
 */
import type { Environment } from '@marcbachmann/cel-js'
import {
  formatAddr,
  formatPrefix,
  is4In6,
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  maskPrefix,
  parseAddr,
  parsePrefix,
  prefixContains,
  prefixesOverlap,
  sameAddr,
  type Addr,
  type Prefix,
} from './cel-netip'

export class CelIP {
  constructor(readonly addr: Addr) {}
}

export class CelCIDR {
  constructor(readonly prefix: Prefix) {}
}

/** the IP library's parseIPAddr: netip's, without zones or IPv4-mapped IPv6 addresses */
function ipAddr(raw: string): Addr {
  let addr: Addr
  try {
    addr = parseAddr(raw)
  } catch (err) {
    throw new Error(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${(err as Error).message}`,
    )
  }
  if (addr.zone) throw new Error(`IP address ${JSON.stringify(raw)} with zone value is not allowed`)
  if (is4In6(addr))
    throw new Error(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`)
  return addr
}

const parsePrefixError = 'network address parse error during conversion from string'

/** the CIDR library's parseCIDR; stringToCIDR words its error once more, as upstream does */
function cidrPrefix(raw: string): Prefix {
  let prefix: Prefix
  try {
    prefix = parsePrefix(raw)
  } catch (err) {
    throw new Error(`${parsePrefixError}: ${parsePrefixError}: ${(err as Error).message}`)
  }
  if (is4In6(prefix.addr))
    throw new Error(
      `${parsePrefixError}: IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`,
    )
  return prefix
}

const succeeds = (f: () => unknown) => {
  try {
    f()
    return true
  } catch {
    return false
  }
}

const containsCIDR = (c: CelCIDR, other: Prefix) =>
  prefixesOverlap(c.prefix, other) && c.prefix.prefixLen <= other.prefixLen

/** An object with no fields whose methods hold a library's namespaced functions (`ip.isCanonical`). */
class IPNamespace {}

export function registerNetLibrary(env: Environment): void {
  env.registerType('net.IP', CelIP)
  env.registerType('net.CIDR', CelCIDR)
  env.registerType('kubernetes.net.IPNamespace', IPNamespace)
  env.registerConstant('ip', 'kubernetes.net.IPNamespace', new IPNamespace())

  env.registerFunction('ip(string): net.IP', (s: string) => new CelIP(ipAddr(s)))
  env.registerFunction('isIP(string): bool', (s: string) => succeeds(() => ipAddr(s)))
  env.registerFunction(
    'kubernetes.net.IPNamespace.isCanonical(string): bool',
    (_ns: IPNamespace, s: string) => formatAddr(ipAddr(s)) === s,
  )
  env.registerFunction('net.IP.family(): int', (ip: CelIP) => (ip.addr.bitLen === 32 ? 4n : 6n))
  env.registerFunction('net.IP.isUnspecified(): bool', (ip: CelIP) => isUnspecified(ip.addr))
  env.registerFunction('net.IP.isLoopback(): bool', (ip: CelIP) => isLoopback(ip.addr))
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: CelIP) =>
    isLinkLocalMulticast(ip.addr),
  )
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', (ip: CelIP) =>
    isLinkLocalUnicast(ip.addr),
  )
  env.registerFunction('net.IP.isGlobalUnicast(): bool', (ip: CelIP) => isGlobalUnicast(ip.addr))
  env.registerFunction('string(net.IP): string', (ip: CelIP) => formatAddr(ip.addr))
  env.registerOperator('net.IP == net.IP', (a: CelIP, b: CelIP) => sameAddr(a.addr, b.addr))

  env.registerFunction('cidr(string): net.CIDR', (s: string) => new CelCIDR(cidrPrefix(s)))
  env.registerFunction('isCIDR(string): bool', (s: string) => succeeds(() => cidrPrefix(s)))
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) =>
    prefixContains(c.prefix, ipAddr(s)),
  )
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', (c: CelCIDR, ip: CelIP) =>
    prefixContains(c.prefix, ip.addr),
  )
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) =>
    containsCIDR(c, cidrPrefix(s)),
  )
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', (c: CelCIDR, o: CelCIDR) =>
    containsCIDR(c, o.prefix),
  )
  env.registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => new CelIP(c.prefix.addr))
  env.registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix.prefixLen))
  env.registerFunction(
    'net.CIDR.masked(): net.CIDR',
    (c: CelCIDR) => new CelCIDR(maskPrefix(c.prefix)),
  )
  env.registerFunction('string(net.CIDR): string', (c: CelCIDR) => formatPrefix(c.prefix))
  env.registerOperator(
    'net.CIDR == net.CIDR',
    (a: CelCIDR, b: CelCIDR) =>
      sameAddr(a.prefix.addr, b.prefix.addr) && a.prefix.prefixLen === b.prefix.prefixLen,
  )
}
