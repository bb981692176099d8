import type { Status } from '../types'

/**
 * The HTTP status kube-apiserver answers a patch that cannot be applied with:
 * - 400 BadRequest for malformed directives (`invalid patch format of retainKeys`, …),
 * - 413 RequestEntityTooLarge for a JSON patch of more operations than the apiserver takes,
 * - 422 Invalid for JSON patch operations that do not apply and for SMP content the schema
 *   cannot take (`patch content doesn't match retainKeys list`),
 * - 500 with no reason for the remaining strategic merge patch errors, which upstream passes
 *   through unconverted (`unknown patch type: …`, `… does not contain declared merge key: name`).
 */
export type PatchErrorCode = 400 | 413 | 422 | 500

/** A patch that cannot be applied; `message` is the text upstream produces for the same failure. */
export class PatchError extends Error {
  override readonly name = 'PatchError'

  constructor(
    message: string,
    readonly code: PatchErrorCode = 422,
  ) {
    super(message)
  }

  /**
   * The Status body kube-apiserver sends for this failure. A 422 from a JSON patch carries the
   * generic sentence and an empty `details` (the operation's own text is not sent to the client),
   * which kubectl prints as `The request is invalid: the server rejected our request due to an
   * error in our request`.
   */
  toStatus(): Status {
    const base = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' } as const
    if (this.code === 400)
      return { ...base, message: this.message, reason: 'BadRequest', code: 400 }
    if (this.code === 413)
      return {
        ...base,
        message: `Request entity too large: ${this.message}`,
        reason: 'RequestEntityTooLarge',
        code: 413,
      }
    if (this.code === 422) {
      return {
        ...base,
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: {},
        code: 422,
      }
    }
    return { ...base, message: this.message, code: 500 }
  }
}

/**
 * Formats a JSON value the way Go's `%v` prints the decoded value, so error messages read like
 * upstream's (`map[$patch:delete name:b]`, `[a b]`, `<nil>`).
 */
export function goFormat(value: unknown): string {
  if (value === null || value === undefined) return '<nil>'
  if (typeof value === 'string') return value
  if (typeof value === 'number') return goNumber(value)
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`
  if (typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${k}:${goFormat((value as Record<string, unknown>)[k])}`)
    return `map[${entries.join(' ')}]`
  }
  return String(value)
}

/** JSON integers decode to int64 on the apiserver (printed plainly); other numbers print like Go's %v of a float64. */
function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString()
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN'
  const exp = Math.floor(Math.log10(Math.abs(n)))
  if (exp < -4 || exp >= 6) {
    const [mantissa, e] = n.toExponential().split('e')
    const sign = e!.startsWith('-') ? '-' : '+'
    const digits = e!.replace(/^[+-]/, '').padStart(2, '0')
    return `${mantissa}e${sign}${digits}`
  }
  return String(n)
}
