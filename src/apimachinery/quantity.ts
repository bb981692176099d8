/**
 * resource.Quantity, the one parser of quantities (the scheduler, admission, quota and the agent):
 * `500m`, `2`, `128Mi`, `1G`, `1e3`. Arithmetic is exact (BigInt) and rounds up like
 * Quantity.MilliValue()/Value(), so a request of `0.1m` cpu still counts as 1 millicore and never
 * as free. A parsed Quantity keeps the format of the text it came from, so sums print back as
 * upstream prints them (quota usage, LimitRange messages): `500m`, `2k`, `128Mi`, `1536`.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent'

export interface Quantity {
  /** the value × 10^9, rounded up to an integer as Quantity rounds below its nano scale */
  nanos: bigint
  format: QuantityFormat
}

export class QuantityError extends Error {
  override name = 'QuantityError'
}

const NANO = 1_000_000_000n
const MAX_INT64 = 2n ** 63n - 1n
const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 }
const decimal: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
}
const pattern = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/
// Beyond this a value is either larger than int64 or smaller than the rounding unit; the exact
// power is irrelevant to a scalar and computing it would only cost time.
const EXPONENT_LIMIT = 400

interface Parts {
  negative: boolean
  digits: bigint
  /** value = digits × 10^pow10 × 2^pow2 */
  pow10: number
  pow2: number
  format: QuantityFormat
  /** the written decimal exponent (`1e3` → 3), 0 for a suffix */
  exponent: number
}

function parts(input: string | number): Parts {
  if (typeof input === 'number' && !Number.isFinite(input))
    throw new QuantityError('quantities must be finite numbers')
  const s = typeof input === 'number' ? String(input) : input.trim()
  const m = pattern.exec(s)
  if (!m || (m[2] === '' && (m[3] ?? '') === ''))
    throw new QuantityError(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    )
  const [, sign, whole, fraction = '', suffix = ''] = m
  let pow10 = -fraction.length
  let pow2 = 0
  let format: QuantityFormat = 'DecimalSI'
  let exponent = 0
  if (suffix in binary) {
    pow2 = binary[suffix]!
    format = 'BinarySI'
  } else if (suffix in decimal) pow10 += decimal[suffix]!
  else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    exponent = Number(suffix.slice(1))
    pow10 += Math.max(-EXPONENT_LIMIT, Math.min(EXPONENT_LIMIT, exponent))
    format = 'DecimalExponent'
  } else throw new QuantityError(`unable to parse quantity's suffix`)
  return {
    negative: sign === '-',
    digits: BigInt((whole || '0') + fraction),
    pow10,
    pow2,
    format,
    exponent,
  }
}

/** The value × 10^scale, its magnitude rounded up to an integer. */
function scaledMagnitude(p: Parts, scale: number): bigint {
  if (p.digits === 0n) return 0n
  const e = p.pow10 + scale
  let num = p.digits * 2n ** BigInt(p.pow2)
  let den = 1n
  if (e >= 0) num *= 10n ** BigInt(e)
  else den = 10n ** BigInt(-e)
  return (num + den - 1n) / den
}

/** The value × 10^scale, rounded away from zero to an integer and clamped to int64. */
function scaled(input: string | number, scale: number): number {
  const p = parts(input)
  let magnitude = scaledMagnitude(p, scale)
  if (magnitude > MAX_INT64) magnitude = MAX_INT64
  const n = Number(magnitude)
  return p.negative && n !== 0 ? -n : n
}

/** CPU in millicores: `500m` → 500, `2` → 2000, `0.1m` → 1 (rounded up). Throws QuantityError. */
export function parseCpuMillis(q: string | number): number {
  return scaled(q, 3)
}

/** An integer amount (bytes for memory and storage): `128Mi` → 134217728, `1G` → 1e9. Throws QuantityError. */
export function parseBytes(q: string | number): number {
  return scaled(q, 0)
}

/** Quantity.Value() for counted resources such as `pods` or `nvidia.com/gpu`. Throws QuantityError. */
export function parseCount(q: string | number): number {
  return scaled(q, 0)
}

export const zeroQuantity = (format: QuantityFormat = 'DecimalSI'): Quantity => ({
  nanos: 0n,
  format,
})

/** resource.ParseQuantity; throws QuantityError with upstream's messages. */
export function parseQuantity(input: string | number): Quantity {
  const p = parts(input)
  if (Math.abs(p.exponent) > 100) throw new QuantityError(`unable to parse quantity's suffix`)
  const nanos = scaledMagnitude(p, 9)
  return { nanos: p.negative ? -nanos : nanos, format: p.format }
}

/** A quantity from a JSON value, or undefined when it does not parse (decoding refuses those). */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined
  try {
    return parseQuantity(v)
  } catch (e) {
    if (e instanceof QuantityError) return undefined
    throw e
  }
}
/** Quantity.String(): the canonical form in the quantity's format. */
export function formatQuantity(q: Quantity): string {
  const { nanos } = q
  if (nanos === 0n) return '0'
  const abs = nanos < 0n ? -nanos : nanos
  const sign = nanos < 0n ? '-' : ''
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    let n = abs / NANO
    let k = 0
    while (k < 6 && n % 1024n === 0n) {
      n /= 1024n
      k++
    }
    return `${sign}${n}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][k]}`
  }
  let exp = 18
  while (exp > -9 && abs % 10n ** BigInt(exp + 9) !== 0n) exp -= 3
  const mantissa = abs / 10n ** BigInt(exp + 9)
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`
  const suffix = Object.entries(decimal).find(([, e]) => e === exp)![0]
  return `${sign}${mantissa}${suffix}`
}

/** a + b in a's format (Quantity.Add keeps the receiver's format). */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.format }
}

export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.format }
}

export function cmpQuantity(a: Quantity, b: Quantity): number {
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1
}

/** Quantity.Value(): the integer value, rounded up. */
export function quantityValue(q: Quantity): bigint {
  return q.nanos >= 0n ? (q.nanos + NANO - 1n) / NANO : -(-q.nanos / NANO)
}

/** Quantity.MilliValue(): the value × 1000, rounded up. */
export function quantityMilli(q: Quantity): bigint {
  const unit = NANO / 1000n
  return q.nanos >= 0n ? (q.nanos + unit - 1n) / unit : -(-q.nanos / unit)
}

/** A quantity of an integer count (resource.NewQuantity(n, DecimalSI)). */
export const countQuantity = (n: number | bigint): Quantity => ({
  nanos: BigInt(n) * NANO,
  format: 'DecimalSI',
})

/** A ResourceList of parsed quantities; unparsable values are left out. */
export type QuantityList = Record<string, Quantity>

export function quantityListOf(raw: unknown): QuantityList {
  const out: QuantityList = {}
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out
  for (const [k, v] of Object.entries(raw)) {
    const q = quantityOf(v)
    if (q) out[k] = q
  }
  return out
}

/** A ResourceList as JSON, each quantity in its canonical form. */
export function quantityListJson(list: QuantityList): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of Object.keys(list).sort()) out[k] = formatQuantity(list[k]!)
  return out
}

/** quota.Add: the sum of two lists, keys of either. */
export function addLists(a: QuantityList, b: QuantityList): QuantityList {
  const out: QuantityList = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = out[k] ? addQuantity(out[k]!, v) : { ...v }
  return out
}
