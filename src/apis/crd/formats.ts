/**
 * The string formats a CRD schema may name that kube-apiserver checks (others are ignored), and
 * whether a value has the format. Formats are named with or without dashes (`date-time`).
 */

const re = (r: RegExp) => (s: string) => r.test(s)

const uuid = re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i)
const uuid3 = re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i)
const uuid4 = re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i)
const uuid5 = re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i)

const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])'
const ipv4Re = new RegExp(`^${octet}(\\.${octet}){3}$`)

/** An IPv6 address as Go's net.ParseIP reads it, an embedded IPv4 tail allowed. */
function isIPv6(s: string): boolean {
  let body = s
  if (s.includes('.')) {
    // The IPv4 tail stands for the last two groups.
    const lastColon = s.lastIndexOf(':')
    if (lastColon < 0 || !ipv4Re.test(s.slice(lastColon + 1))) return false
    body = `${s.slice(0, lastColon + 1)}0:0`
  }
  const halves = body.split('::')
  if (halves.length > 2) return false
  const groups = (h: string) => (h === '' ? [] : h.split(':'))
  const parts = halves.flatMap(groups)
  if (!parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false
  return halves.length === 2 ? parts.length < 8 : parts.length === 8
}

const isIP = (s: string) => ipv4Re.test(s) || isIPv6(s)

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/')
  if (slash < 0) return false
  const ip = s.slice(0, slash)
  const bits = s.slice(slash + 1)
  if (!/^[0-9]{1,3}$/.test(bits)) return false
  const max = ipv4Re.test(ip) ? 32 : isIPv6(ip) ? 128 : -1
  return max >= 0 && Number(bits) <= max
}

function isMAC(s: string): boolean {
  const groups = (sep: string, width: number) => {
    const parts = s.split(sep)
    return (
      [6, 8, 20].some((n) => parts.length * (width / 2) === n) &&
      parts.every((p) => new RegExp(`^[0-9a-fA-F]{${width}}$`).test(p))
    )
  }
  return groups(':', 2) || groups('-', 2) || groups('.', 4)
}

function isHostname(s: string): boolean {
  if (s.length > 255) return false
  return s
    .split('.')
    .every((l) => /^[a-zA-Z0-9\p{L}]([a-zA-Z0-9\p{L}-]{0,61}[a-zA-Z0-9\p{L}])?$/u.test(l))
}

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

function isDateTime(s: string): boolean {
  const m =
    /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(
      s,
    )
  if (!m || !isDate(m[1]!)) return false
  return Number(m[2]) < 24 && Number(m[3]) < 60 && (m[4] === undefined || Number(m[4]) < 60)
}

const isBase64 = re(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)

const rgbPart = '\\s*(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\s*'

const checks: Record<string, (s: string) => boolean> = {
  bsonobjectid: re(/^[0-9a-fA-F]{24}$/),
  ipv4: (s) => isIP(s) && s.includes('.'),
  ipv6: (s) => isIP(s) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  hostname: isHostname,
  uuid,
  uuid3,
  uuid4,
  uuid5,
  ssn: re(/^\d{3}[- ]?\d{2}[- ]?\d{4}$/),
  hexcolor: re(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  rgbcolor: re(new RegExp(`^rgb\\(${rgbPart},${rgbPart},${rgbPart}\\)$`)),
  byte: isBase64,
  password: () => true,
  date: isDate,
  datetime: isDateTime,
  // Accepted without a check here.
  uri: () => true,
  email: () => true,
  isbn: () => true,
  isbn10: () => true,
  isbn13: () => true,
  creditcard: () => true,
  duration: () => true,
}

const normalize = (format: string) => format.replaceAll('-', '')

/** Whether kube-apiserver checks values of this format (it ignores the rest, int32 and such). */
export function isCheckedFormat(format: string | undefined): format is string {
  return !!format && Object.hasOwn(checks, normalize(format))
}

/** Whether `value` has the (checked) format. */
export function matchesFormat(format: string, value: string): boolean {
  const check = checks[normalize(format)]
  return check === undefined || check(value)
}
