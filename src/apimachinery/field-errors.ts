import type { StatusCause } from './types'
import { goQuote, goStringMap, goStringSlice } from './go-format'

/**
 * Field-level validation in the shape of k8s.io/apimachinery/pkg/util/validation/field: every check
 * returns causes carrying the field path, the bad value and the detail, and the texts kubectl shows
 * are rendered from them exactly as kube-apiserver v1.32 renders a field.Error.
 */

/** metav1.CauseType values a validation cause can carry (the `reason` of a StatusCause). */
export type CauseReason =
  | 'FieldValueInvalid'
  | 'FieldValueTypeInvalid'
  | 'FieldValueRequired'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueNotFound'
  | 'InternalError'

export interface FieldCause {
  /** the path of the field, e.g. `spec.template.spec.containers[0].name` */
  field: string
  reason: CauseReason
  /** the detail after the value, e.g. `must be greater than or equal to 0`; may be empty */
  message: string
  /** the offending value, as given */
  value?: unknown
  /** how upstream prints the value when Go renders it with %#v (a struct, map or slice) */
  display?: string
}

const typeTexts: Record<CauseReason, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
}

// Upstream prints no value for these types, whatever was passed.
const valueless = new Set<CauseReason>([
  'FieldValueRequired',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'InternalError',
])

// Constructors, one per field.ErrorType

export function invalid(
  field: string,
  value: unknown,
  message: string,
  display?: string,
): FieldCause {
  return withDisplay({ field, reason: 'FieldValueInvalid', message, value }, display)
}

/** A value of the wrong JSON type (field.TypeInvalid). */
export function typeInvalid(
  field: string,
  value: unknown,
  message: string,
  display?: string,
): FieldCause {
  return withDisplay({ field, reason: 'FieldValueTypeInvalid', message, value }, display)
}

export function required(field: string, message = ''): FieldCause {
  return { field, reason: 'FieldValueRequired', message }
}

export function duplicate(field: string, value: unknown, display?: string): FieldCause {
  return withDisplay({ field, reason: 'FieldValueDuplicate', message: '', value }, display)
}

export function notFound(field: string, value: unknown): FieldCause {
  return { field, reason: 'FieldValueNotFound', message: '', value }
}

export function forbidden(field: string, message: string): FieldCause {
  return { field, reason: 'FieldValueForbidden', message }
}

/** The detail lists the supported values in the order given, each quoted. */
export function notSupported(
  field: string,
  value: unknown,
  supported: readonly string[],
  display?: string,
): FieldCause {
  const message = supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : ''
  return withDisplay({ field, reason: 'FieldValueNotSupported', message, value }, display)
}

export function tooLong(field: string, maxBytes: number): FieldCause {
  const message = maxBytes >= 0 ? `may not be more than ${maxBytes} bytes` : 'value is too long'
  return { field, reason: 'FieldValueTooLong', message }
}

function withDisplay(cause: FieldCause, display: string | undefined): FieldCause {
  if (display !== undefined) cause.display = display
  return cause
}

// Rendering

/** The cause without its field (field.Error.ErrorBody): `Invalid value: "Bad_Name": a lowercase …`. */
export function causeBody(cause: FieldCause): string {
  let s = typeTexts[cause.reason]
  if (!valueless.has(cause.reason)) s += `: ${cause.display ?? formatValue(cause.value)}`
  if (cause.message) s += `: ${cause.message}`
  return s
}

/** The whole cause as upstream prints it: `metadata.name: Invalid value: "Bad_Name": …`. */
export function formatCause(cause: FieldCause): string {
  return `${cause.field}: ${causeBody(cause)}`
}

/** The metav1.StatusCause kube-apiserver puts in `details.causes` for this cause. */
export function toStatusCause(cause: FieldCause): StatusCause {
  return { reason: cause.reason, message: causeBody(cause), field: cause.field }
}

/**
 * The causes joined as an aggregate error prints them: duplicates dropped, one cause bare, several
 * in brackets separated by `, `.
 */
export function aggregateMessage(causes: readonly FieldCause[]): string {
  const seen = [...new Set(causes.map(formatCause))]
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`
}

/** The message of a 422 Invalid Status: `Deployment.apps "web" is invalid: spec.replicas: …`. */
export function invalidMessage(
  qualifiedKind: string,
  name: string,
  causes: readonly FieldCause[],
): string {
  const head = `${qualifiedKind} ${goQuote(name)} is invalid`
  return causes.length ? `${head}: ${aggregateMessage(causes)}` : head
}

/** A bad value as field.Error prints it when no Go rendering was supplied. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return goQuote(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return goStringSlice(value)
  if (isStringMap(value)) return goStringMap(value)
  return JSON.stringify(value)
}

function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  )
}
