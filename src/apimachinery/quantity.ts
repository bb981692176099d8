/**
 * resource.Quantity parsing, the one parser of quantities (the scheduler, admission and the agent): `500m`, `2`, `128Mi`, `1G`,
 * `1e3`. Arithmetic is exact (BigInt) and rounds up like Quantity.MilliValue()/Value(), so a request
 * of `0.1m` cpu still counts as 1 millicore and never as free.
 */

export class QuantityError extends Error {
  override name = 'QuantityError'
}

const binaryExponents: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 }
const decimalExponents: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 }

const MAX_INT64 = 2n ** 63n - 1n
// Beyond this a value is either larger than int64 or smaller than the rounding unit; the exact
// power is irrelevant and computing it would only cost time.
const EXPONENT_LIMIT = 400

interface Parsed {
  negative: boolean
  digits: bigint
  /** value = digits × 10^pow10 × 2^pow2 */
  pow10: number
  pow2: number
}

const numberPattern = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/

function parse(input: string | number): Parsed {
  const s = typeof input === 'number' ? numberToString(input) : input
  const m = numberPattern.exec(s)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new QuantityError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`)
  const [, sign, whole, fraction = '', suffix] = m
  let pow10 = -fraction.length
  let pow2 = 0
  if (suffix in binaryExponents) pow2 = binaryExponents[suffix]
  else if (suffix in decimalExponents) pow10 += decimalExponents[suffix]
  else if (/^[eE][+-]?[0-9]+$/.test(suffix)) pow10 += clampExponent(Number(suffix.slice(1)))
  else throw new QuantityError(`unable to parse quantity's suffix`)
  return { negative: sign === '-', digits: BigInt((whole || '0') + fraction), pow10, pow2 }
}

function numberToString(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityError('quantities must be finite numbers')
  return String(n)
}

function clampExponent(e: number): number {
  return Math.max(-EXPONENT_LIMIT, Math.min(EXPONENT_LIMIT, e))
}

/** The value × 10^scale, rounded away from zero to an integer and clamped to int64. */
function scaled(input: string | number, scale: number): number {
  const { negative, digits, pow10, pow2 } = parse(input)
  if (digits === 0n) return 0
  const e = pow10 + scale
  let numerator = digits * 2n ** BigInt(pow2)
  let denominator = 1n
  if (e >= 0) numerator *= 10n ** BigInt(e)
  else denominator = 10n ** BigInt(-e)
  let magnitude = (numerator + denominator - 1n) / denominator
  if (magnitude > MAX_INT64) magnitude = MAX_INT64
  const n = Number(magnitude)
  return negative ? -n : n
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
