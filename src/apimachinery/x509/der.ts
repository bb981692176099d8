/**
 * A small DER (X.690) reader and writer: enough of ASN.1 to read PKCS#10 certificate requests and
 * X.509 certificates and to write certificates. Readers keep each element's exact bytes, so parts
 * such as a subject Name or a public key are copied into a new certificate unchanged.
 */

export const tag = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  t61String: 0x14,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  bmpString: 0x1e,
  sequence: 0x30,
  set: 0x31,
} as const

/** One decoded element: its tag byte, its whole encoding and its contents. */
export interface Der {
  tag: number
  /** the whole element: tag, length and contents */
  raw: Uint8Array
  /** the contents */
  value: Uint8Array
}

export class DerError extends Error {}

/** Reads the element at `offset`; throws DerError on anything that is not well-formed DER. */
export function readDer(buf: Uint8Array, offset = 0): Der {
  if (offset + 2 > buf.length) throw new DerError('truncated element')
  const t = buf[offset]!
  if ((t & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not supported')
  let len = buf[offset + 1]!
  let at = offset + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4) throw new DerError('unsupported length encoding')
    if (at + n > buf.length) throw new DerError('truncated length')
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + buf[at + i]!
    if (len < 0x80 || (n > 1 && buf[at] === 0)) throw new DerError('non-minimal length')
    at += n
  }
  if (at + len > buf.length) throw new DerError('truncated contents')
  return { tag: t, raw: buf.subarray(offset, at + len), value: buf.subarray(at, at + len) }
}

/** Reads a whole buffer as exactly one element. */
export function readOne(buf: Uint8Array): Der {
  const el = readDer(buf)
  if (el.raw.length !== buf.length) throw new DerError('trailing data')
  return el
}

/** The elements inside a constructed element. */
export function children(el: Der): Der[] {
  if (!(el.tag & 0x20))
    throw new DerError(`element with tag 0x${el.tag.toString(16)} is not constructed`)
  const out: Der[] = []
  for (let at = 0; at < el.value.length; ) {
    const c = readDer(el.value, at)
    out.push(c)
    at += c.raw.length
  }
  return out
}

/** Checks an element's tag, for readers that walk a known structure. */
export function expect(el: Der | undefined, want: number, what: string): Der {
  if (!el || el.tag !== want)
    throw new DerError(
      `${what}: expected tag 0x${want.toString(16)}, found ${el ? `0x${el.tag.toString(16)}` : 'nothing'}`,
    )
  return el
}

/** An OBJECT IDENTIFIER's dotted form. */
export function readOid(el: Der): string {
  expect(el, tag.oid, 'object identifier')
  const v = el.value
  if (!v.length) throw new DerError('empty object identifier')
  const parts: number[] = []
  let n = 0
  for (const b of v) {
    n = n * 128 + (b & 0x7f)
    if (!(b & 0x80)) {
      parts.push(n)
      n = 0
    }
  }
  if (v[v.length - 1]! & 0x80) throw new DerError('truncated object identifier')
  const first = parts.shift()!
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80]
  return [...head, ...parts].join('.')
}

/** A string of any of the directory string types, as text. */
export function readString(el: Der): string {
  if (el.tag === tag.bmpString) {
    let s = ''
    for (let i = 0; i + 1 < el.value.length; i += 2)
      s += String.fromCharCode((el.value[i]! << 8) | el.value[i + 1]!)
    return s
  }
  if (el.tag === tag.t61String) return String.fromCharCode(...el.value)
  if ([tag.utf8String, tag.printableString, tag.ia5String].includes(el.tag as never))
    return new TextDecoder().decode(el.value)
  throw new DerError(`tag 0x${el.tag.toString(16)} is not a string`)
}

/** A UTCTime or GeneralizedTime (the forms RFC 5280 allows: seconds, `Z`) as epoch milliseconds. */
export function readTime(el: Der): number {
  const s = new TextDecoder().decode(el.value)
  const m =
    el.tag === tag.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
      : el.tag === tag.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
        : null
  if (!m) throw new DerError(`unsupported time ${JSON.stringify(s)}`)
  let year = Number(m[1])
  if (el.tag === tag.utcTime) year += year < 50 ? 2000 : 1900
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
}

/** A BIT STRING's bits, which must be whole bytes (as signatures and keys are). */
export function readBitStringBytes(el: Der): Uint8Array {
  expect(el, tag.bitString, 'bit string')
  if (el.value[0] !== 0) throw new DerError('bit string with unused bits')
  return el.value.subarray(1)
}

// Writers

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n]
  const out: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff)
  return [0x80 | out.length, ...out]
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** One element from its tag and contents. */
export function encode(t: number, ...contents: Uint8Array[]): Uint8Array {
  const value = concat(contents)
  return concat([new Uint8Array([t, ...lengthBytes(value.length)]), value])
}

export const sequence = (...items: Uint8Array[]) => encode(tag.sequence, ...items)
export const set = (...items: Uint8Array[]) => encode(tag.set, ...items)
/** A context-specific constructed element, `[n] EXPLICIT`. */
export const explicit = (n: number, ...items: Uint8Array[]) => encode(0xa0 | n, ...items)
export const octetString = (bytes: Uint8Array) => encode(tag.octetString, bytes)
export const bitString = (bytes: Uint8Array, unusedBits = 0) =>
  encode(tag.bitString, new Uint8Array([unusedBits]), bytes)
export const boolean = (v: boolean) => encode(0x01, new Uint8Array([v ? 0xff : 0]))
export const utf8 = (s: string) => encode(tag.utf8String, new TextEncoder().encode(s))

/** An INTEGER from unsigned big-endian bytes (made positive and minimal). */
export function unsignedInteger(bytes: Uint8Array): Uint8Array {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  const v = bytes.subarray(start)
  return encode(tag.integer, v[0]! & 0x80 ? concat([new Uint8Array([0]), v]) : v)
}

export const smallInteger = (n: number) => unsignedInteger(new Uint8Array([n]))

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map(Number)
  const arcs = [parts[0]! * 40 + parts[1]!, ...parts.slice(2)]
  const out: number[] = []
  for (const arc of arcs) {
    const bytes = [arc & 0x7f]
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128))
      bytes.unshift((v & 0x7f) | 0x80)
    out.push(...bytes)
  }
  return encode(tag.oid, new Uint8Array(out))
}

/** RFC 5280's time: UTCTime through 2049, GeneralizedTime after. */
export function time(ms: number): Uint8Array {
  const d = new Date(Math.floor(ms / 1000) * 1000)
  const iso = d.toISOString() // YYYY-MM-DDTHH:MM:SS.000Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z'
  const year = d.getUTCFullYear()
  return year < 2050
    ? encode(tag.utcTime, new TextEncoder().encode(digits.slice(2)))
    : encode(tag.generalizedTime, new TextEncoder().encode(digits))
}
