/**
 * Distinguished names as a list of relative distinguished names (RDNs), read either from a DER
 * Name or from its RFC 4514 (RFC 2253) string form, as OpenSSL prints it (`-nameopt RFC2253`):
 * RDNs last-first, separated by `,`, the attributes of a multi-valued RDN by `+`, special
 * characters escaped with `\`, bytes as `\XX`, attributes of unknown type as `#` and the DER in hex.
 */
import { children, DerError, expect, readOid, readOne, readString, tag, type Der } from './der'

/** One attribute: its type as a dotted OID, its value as text (or `#` + the hex of its DER when it is not a string). */
export interface NameAttribute {
  type: string
  value: string
}

/** RDNs in their encoded order (the first is the most general, e.g. C=...). */
export type DistinguishedName = NameAttribute[][]

export const oidCommonName = '2.5.4.3'
export const oidOrganization = '2.5.4.10'

/** The attribute types RFC 4514 names, and those OpenSSL prints by short name. */
const shortNames: Record<string, string> = {
  cn: oidCommonName,
  sn: '2.5.4.4',
  serialnumber: '2.5.4.5',
  c: '2.5.4.6',
  l: '2.5.4.7',
  st: '2.5.4.8',
  street: '2.5.4.9',
  o: oidOrganization,
  ou: '2.5.4.11',
  title: '2.5.4.12',
  description: '2.5.4.13',
  businesscategory: '2.5.4.15',
  postalcode: '2.5.4.17',
  name: '2.5.4.41',
  gn: '2.5.4.42',
  initials: '2.5.4.43',
  generationqualifier: '2.5.4.44',
  dnqualifier: '2.5.4.46',
  pseudonym: '2.5.4.65',
  dc: '0.9.2342.19200300.100.1.25',
  uid: '0.9.2342.19200300.100.1.1',
  emailaddress: '1.2.840.113549.1.9.1',
}

const stringTags = new Set<number>([
  tag.utf8String,
  tag.printableString,
  tag.t61String,
  tag.ia5String,
  tag.bmpString,
])

/** Bytes as lower-case hex. */
export const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** A value as compared: text for a directory string, else `#` and the hex of its whole DER. */
function valueOf(el: Der): string {
  return stringTags.has(el.tag) ? readString(el) : `#${hex(el.raw)}`
}

/** The RDNs of a DER Name. */
export function nameFromDer(name: Der): DistinguishedName {
  return children(expect(name, tag.sequence, 'name')).map((rdn) =>
    children(expect(rdn, tag.set, 'relative distinguished name')).map((atv) => {
      const [type, value] = children(expect(atv, tag.sequence, 'attribute'))
      if (!value) throw new DerError('attribute without a value')
      return { type: readOid(type!), value: valueOf(value) }
    }),
  )
}

/** Parses an RFC 4514/2253 string; undefined when it is not one, or names a type not known here. */
export function parseDistinguishedName(text: string): DistinguishedName | undefined {
  const rdns: DistinguishedName = []
  let rdn: NameAttribute[] = []
  let at = 0
  const skipSpaces = () => {
    while (text[at] === ' ') at++
  }
  skipSpaces()
  if (at === text.length) return []
  for (;;) {
    skipSpaces()
    const eq = text.indexOf('=', at)
    if (eq < 0) return undefined
    const type = attributeType(text.slice(at, eq).trim())
    if (!type) return undefined
    at = eq + 1
    skipSpaces()
    const parsed = text[at] === '#' ? readHexValue(text, at) : readStringValue(text, at)
    if (!parsed) return undefined
    rdn.push({ type, value: parsed.value })
    at = parsed.end
    skipSpaces()
    if (at === text.length) break
    const sep = text[at++]
    if (sep === ',' || sep === ';') {
      rdns.push(rdn)
      rdn = []
    } else if (sep !== '+') return undefined
  }
  rdns.push(rdn)
  return rdns.reverse()
}

function attributeType(text: string): string | undefined {
  const dotted = text.replace(/^oid\./i, '')
  if (/^\d+(\.\d+)+$/.test(dotted)) return dotted
  return shortNames[text.toLowerCase()]
}

/** `#` and hex digits: the value's DER, shown as text when it is a directory string. */
function readHexValue(text: string, start: number): { value: string; end: number } | undefined {
  let end = start + 1
  while (end < text.length && /[0-9a-fA-F]/.test(text[end]!)) end++
  const digits = text.slice(start + 1, end)
  if (!digits.length || digits.length % 2) return undefined
  try {
    return {
      value: valueOf(readOne(Uint8Array.from(digits.match(/../g)!, (h) => parseInt(h, 16)))),
      end,
    }
  } catch {
    return undefined
  }
}

const specials = new Set([',', '+', '"', '\\', '<', '>', ';', '=', '#', ' '])

/** A string value up to the next unescaped `,`, `;` or `+`, with its escapes undone (as UTF-8). */
function readStringValue(text: string, start: number): { value: string; end: number } | undefined {
  const bytes: number[] = []
  let trailingSpaces = 0
  let at = start
  const encoder = new TextEncoder()
  while (at < text.length) {
    const c = text[at]!
    if (c === ',' || c === ';' || c === '+') break
    if (c === '"' || c === '<' || c === '>') return undefined
    if (c === '\\') {
      const next = text[at + 1]
      if (next !== undefined && specials.has(next)) {
        bytes.push(next.charCodeAt(0))
        at += 2
      } else if (/^[0-9a-fA-F]{2}$/.test(text.slice(at + 1, at + 3))) {
        bytes.push(parseInt(text.slice(at + 1, at + 3), 16))
        at += 3
      } else return undefined
      trailingSpaces = 0
      continue
    }
    const code = text.codePointAt(at)!
    const ch = String.fromCodePoint(code)
    bytes.push(...encoder.encode(ch))
    trailingSpaces = c === ' ' ? trailingSpaces + 1 : 0
    at += ch.length
  }
  try {
    const value = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      new Uint8Array(bytes.slice(0, bytes.length - trailingSpaces)),
    )
    return { value, end: at }
  } catch {
    return undefined
  }
}

/** Whether two names are the same: the same RDNs in the same order, each with the same attributes. */
export function sameName(a: DistinguishedName, b: DistinguishedName): boolean {
  if (a.length !== b.length) return false
  const key = (rdn: NameAttribute[]) => JSON.stringify(rdn.map((x) => [x.type, x.value]).sort())
  return a.every((rdn, i) => key(rdn) === key(b[i]!))
}

/** The values of one attribute type, in encoded order. */
export function attributeValues(name: DistinguishedName, type: string): string[] {
  return name
    .flat()
    .filter((a) => a.type === type)
    .map((a) => a.value)
}
