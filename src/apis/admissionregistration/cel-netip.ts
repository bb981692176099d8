/**
 * IP addresses and prefixes as Go's net/netip reads and prints them (ParseAddr, ParsePrefix,
 * Addr.String, Prefix.Masked and friends), with its error messages: the values behind CEL's
 * `ip()` and `cidr()`. An address is its bits as one number, 32 of them for IPv4 and 128 for IPv6.
 */

export interface Addr {
  bits: bigint
  /** 32 or 128 */
  bitLen: 32 | 128
  /** the IPv6 zone (`%eth0`), '' when none */
  zone: string
}

export interface Prefix {
  addr: Addr
  prefixLen: number
}

const quote = (s: string) => JSON.stringify(s)

class ParseAddrError extends Error {
  constructor(input: string, msg: string, at?: string) {
    super(`ParseAddr(${quote(input)}): ${msg}${at ? ` (at ${quote(at)})` : ''}`)
  }
}

/** parseIPv4Fields: four decimal octets without leading zeros. */
function ipv4Fields(input: string, s: string): number[] {
  const fields: number[] = []
  let val = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0)
        throw new ParseAddrError(input, 'IPv4 field has octet with leading zero')
      val = val * 10 + Number(c)
      digits++
      if (val > 255) throw new ParseAddrError(input, 'IPv4 field has value >255')
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.')
        throw new ParseAddrError(input, 'IPv4 field must have at least one digit', s.slice(i))
      if (fields.length === 3) throw new ParseAddrError(input, 'IPv4 address too long')
      fields.push(val)
      val = 0
      digits = 0
    } else throw new ParseAddrError(input, 'unexpected character', s.slice(i))
  }
  if (fields.length < 3) throw new ParseAddrError(input, 'IPv4 address too short')
  fields.push(val)
  return fields
}

const fromBytes = (bytes: number[]) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n)

function parseIPv6(input: string): Addr {
  let s = input
  let zone = ''
  const pct = s.indexOf('%')
  if (pct >= 0) {
    zone = s.slice(pct + 1)
    s = s.slice(0, pct)
    if (!zone) throw new ParseAddrError(input, 'zone must be a non-empty string')
  }
  const ip = new Array<number>(16).fill(0)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (!s) return { bits: 0n, bitLen: 128, zone }
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const d = parseInt(s[off]!, 16)
      if (Number.isNaN(d)) break
      acc = acc * 16 + d
      if (off > 3) throw new ParseAddrError(input, 'each group must have 4 or less digits', s)
      if (acc > 0xffff) throw new ParseAddrError(input, 'IPv6 field has value >=2^16', s)
    }
    if (off === 0)
      throw new ParseAddrError(input, 'each colon-separated field must have at least one digit', s)
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12)
        throw new ParseAddrError(
          input,
          'embedded IPv4 address must replace the final 2 fields of the address',
          s,
        )
      if (i + 4 > 16)
        throw new ParseAddrError(
          input,
          'too many hex fields to fit an embedded IPv4 at the end of the address',
          s,
        )
      ip.splice(i, 4, ...ipv4Fields(input, s))
      s = ''
      i += 4
      break
    }
    ip[i] = acc >> 8
    ip[i + 1] = acc & 0xff
    i += 2
    s = s.slice(off)
    if (!s) break
    if (s[0] !== ':') throw new ParseAddrError(input, 'unexpected character, want colon', s)
    if (s.length === 1)
      throw new ParseAddrError(input, 'colon must be followed by more characters', s)
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) throw new ParseAddrError(input, 'multiple :: in address', s)
      ellipsis = i
      s = s.slice(1)
      if (!s) break
    }
  }
  if (s) throw new ParseAddrError(input, 'trailing garbage after address', s)
  if (i < 16) {
    if (ellipsis < 0) throw new ParseAddrError(input, 'address string too short')
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0)
    throw new ParseAddrError(input, 'the :: must expand to at least one field of zeros', s)
  return { bits: fromBytes(ip), bitLen: 128, zone }
}

/** netip.ParseAddr; throws with its message. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === '.') return { bits: fromBytes(ipv4Fields(s, s)), bitLen: 32, zone: '' }
    if (c === ':') return parseIPv6(s)
    if (c === '%') throw new ParseAddrError(s, 'missing IPv6 address')
  }
  throw new ParseAddrError(s, 'unable to parse IP')
}

const prefixError = (s: string, msg: string) => new Error(`netip.ParsePrefix(${quote(s)}): ${msg}`)

/** netip.ParsePrefix; throws with its message. */
export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/')
  if (slash < 0) throw prefixError(s, "no '/'")
  let addr: Addr
  try {
    addr = parseAddr(s.slice(0, slash))
  } catch (err) {
    throw prefixError(s, (err as Error).message)
  }
  if (addr.zone) throw prefixError(s, 'IPv6 zones cannot be present in a prefix')
  const bits = s.slice(slash + 1)
  if (!/^(0|[1-9][0-9]*)$/.test(bits)) throw prefixError(s, `bad bits after slash: ${quote(bits)}`)
  const prefixLen = Number(bits)
  if (prefixLen > addr.bitLen) throw prefixError(s, 'prefix length out of range')
  return { addr, prefixLen }
}

export const is4In6 = (a: Addr) => a.bitLen === 128 && a.bits >> 32n === 0xffffn
const group = (a: Addr, i: number) => Number((a.bits >> BigInt(112 - 16 * i)) & 0xffffn)

function ipv4Text(bits: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.')
}

/** Addr.String(): dotted IPv4, or IPv6 with its longest run of zero groups as `::`. */
export function formatAddr(a: Addr): string {
  const zone = a.zone ? `%${a.zone}` : ''
  if (a.bitLen === 32) return ipv4Text(a.bits)
  if (is4In6(a)) return `::ffff:${ipv4Text(a.bits & 0xffffffffn)}${zone}`
  let zeroStart = -1
  let zeroLen = 0
  for (let i = 0; i < 8; i++) {
    let j = i
    while (j < 8 && group(a, j) === 0) j++
    if (j - i >= 2 && j - i > zeroLen) {
      zeroStart = i
      zeroLen = j - i
    }
  }
  let out = ''
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::'
      i += zeroLen - 1
      continue
    }
    if (i > 0 && !out.endsWith('::')) out += ':'
    out += group(a, i).toString(16)
  }
  return out + zone
}

export const formatPrefix = (p: Prefix) => `${formatAddr(p.addr)}/${p.prefixLen}`

const hostMask = (bitLen: number, prefixLen: number) => (1n << BigInt(bitLen - prefixLen)) - 1n
const maskedBits = (a: Addr, prefixLen: number) => a.bits & ~hostMask(a.bitLen, prefixLen)

/** Prefix.Masked(): the host bits cleared. */
export const maskPrefix = (p: Prefix): Prefix => ({
  addr: { ...p.addr, bits: maskedBits(p.addr, p.prefixLen) },
  prefixLen: p.prefixLen,
})

/** Prefix.Contains */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone || a.bitLen !== p.addr.bitLen) return false
  return maskedBits(a, p.prefixLen) === maskedBits(p.addr, p.prefixLen)
}

/** Prefix.Overlaps */
export function prefixesOverlap(p: Prefix, o: Prefix): boolean {
  if (p.addr.bitLen !== o.addr.bitLen) return false
  const bits = Math.min(p.prefixLen, o.prefixLen)
  return bits === 0 || maskedBits(p.addr, bits) === maskedBits(o.addr, bits)
}

export const sameAddr = (a: Addr, b: Addr) =>
  a.bits === b.bits && a.bitLen === b.bitLen && a.zone === b.zone

const inV4 = (a: Addr, base: number[], prefixLen: number) =>
  a.bitLen === 32 && maskedBits(a, prefixLen) === fromBytes(base)
const topV6 = (a: Addr, mask: number, value: number) =>
  a.bitLen === 128 && (group(a, 0) & mask) === value

export const isUnspecified = (a: Addr) => a.bits === 0n
export const isLoopback = (a: Addr) =>
  inV4(a, [127, 0, 0, 0], 8) || (a.bitLen === 128 && a.bits === 1n)
export const isMulticast = (a: Addr) => inV4(a, [224, 0, 0, 0], 4) || topV6(a, 0xff00, 0xff00)
export const isLinkLocalMulticast = (a: Addr) =>
  inV4(a, [224, 0, 0, 0], 24) || topV6(a, 0xff0f, 0xff02)
export const isLinkLocalUnicast = (a: Addr) =>
  inV4(a, [169, 254, 0, 0], 16) || topV6(a, 0xffc0, 0xfe80)

/** Addr.IsGlobalUnicast: private addresses count, as Go's. */
export function isGlobalUnicast(a: Addr): boolean {
  const unmapped: Addr = is4In6(a) ? { bits: a.bits & 0xffffffffn, bitLen: 32, zone: '' } : a
  if (unmapped.bitLen === 32 && (unmapped.bits === 0n || unmapped.bits === 0xffffffffn))
    return false
  return (
    !isUnspecified(unmapped) &&
    !isLoopback(unmapped) &&
    !isMulticast(unmapped) &&
    !isLinkLocalUnicast(unmapped)
  )
}
