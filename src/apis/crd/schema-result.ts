import { invalid, type FieldCause } from '../../apimachinery/field-errors'
import { goFloat, goQuote } from '../../apimachinery/go-format'

/**
 * What validating a value against a CRD schema yields, and how its causes read: each of the
 * OpenAPI validator's messages once, as a field error, with values printed as Go prints the
 * decoded JSON.
 */

export type Obj = Record<string, unknown>

/** One problem, keyed by the validator's own message: a result holds each message once. */
interface Problem {
  key: string
  cause: FieldCause
}

export class Result {
  problems: Problem[] = []
  matches = 0

  add(key: string, cause: FieldCause): void {
    if (!this.problems.some((p) => p.key === key)) this.problems.push({ key, cause })
  }

  merge(other: Result | undefined): void {
    if (!other) return
    for (const p of other.problems) this.add(p.key, p.cause)
    this.matches += other.matches
  }

  get valid(): boolean {
    return this.problems.length === 0
  }
}

export const IN = 'body'

/** The field of a validator error named `name`; errors of the whole object have none. */
export const fieldOf = (name: string) =>
  name === '' || name === '.' ? '<nil>' : name.replace(/^\./, '')

/** Go's int64 for a JSON number: integral and in range. */
export const isInt = (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 63

/** A JSON number as Go prints the decoded value: int64 plainly, float64 with %v. */
const goNumber = (n: number) => (isInt(n) ? String(n) : goFloat(n))

/** %#v of a decoded JSON value, as field errors print maps and slices. */
function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (typeof v === 'string') return goQuote(v)
  if (typeof v === 'number') return goNumber(v)
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return `[]interface {}{${v.map(goElem).join(', ')}}`
  const keys = Object.keys(v as Obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goElem((v as Obj)[k])}`).join(', ')}}`
}

const goElem = (v: unknown) => (v === null || v === undefined ? 'interface {}(nil)' : goSyntax(v))

/** How a bad value reads after `Invalid value: `. */
export function display(v: unknown): string | undefined {
  if (typeof v === 'number') return goNumber(v)
  if (v !== null && typeof v === 'object') return goSyntax(v)
  return undefined
}

export function invalidCause(name: string, value: unknown, message: string): FieldCause {
  return invalid(fieldOf(name), value ?? '', message, display(value))
}

/** An error that is not a field validation (anyOf and the like): no field, an empty value. */
export function plainCause(message: string): FieldCause {
  return invalid('<nil>', '', message)
}

export function tooMany(name: string, actual: number, max: number): FieldCause {
  return {
    field: fieldOf(name),
    reason: 'FieldValueTooMany',
    message: `must have at most ${max} items`,
    value: actual,
  }
}
