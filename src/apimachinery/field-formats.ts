import { type FieldCause, invalid, tooLong } from './field-errors'

/**
 * String format checks (k8s.io/apimachinery/pkg/util/validation): each returns the list of
 * problems, empty when the value is fine; and the field validators built on them, one Invalid
 * cause per problem.
 */

// String format checks (k8s.io/apimachinery/pkg/util/validation): each returns the list of
// problems, empty when the value is fine.

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`)
const labelValueFmt = `(${qualifiedNameFmt})?`
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const labelValueRe = new RegExp(`^${labelValueFmt}$`)
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`)
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`)
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?'
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`)
const configMapKeyFmt = '[-._a-zA-Z0-9]+'
const configMapKeyErrMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`)
const percentFmt = '[0-9]+%'
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'"
const percentRe = new RegExp(`^${percentFmt}$`)

export const labelValueMaxLength = 63
export const dns1123LabelMaxLength = 63
export const dns1123SubdomainMaxLength = 253
export const dns1035LabelMaxLength = 63
/** metadata.annotations may hold at most this many bytes of keys and values together. */
export const totalAnnotationSizeLimit = 256 * 1024
export const isNegativeErrorMsg = 'must be greater than or equal to 0'

const encoder = new TextEncoder()

/** Go measures strings in UTF-8 bytes. */
export function byteLength(s: string): number {
  let ascii = true
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false
      break
    }
  }
  return ascii ? s.length : encoder.encode(s).length
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`
  // The double space after each example's comma is upstream's own wording.
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`
}

export function isQualifiedName(value: string): string[] {
  const errs: string[] = []
  const parts = value.split('/')
  let name: string
  if (parts.length === 1) {
    name = parts[0]
  } else if (parts.length === 2) {
    const prefix = parts[0]
    name = parts[1]
    if (!prefix.length) errs.push('prefix part must be non-empty')
    else errs.push(...isDns1123Subdomain(prefix).map((m) => `prefix part ${m}`))
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ]
  }
  if (!name.length) errs.push('name part must be non-empty')
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`)
  if (!qualifiedNameRe.test(name))
    errs.push(
      `name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    )
  return errs
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength))
  if (!labelValueRe.test(value))
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'))
  return errs
}

export function isDns1123Label(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength))
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be failing on its dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots')
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'))
  }
  return errs
}

export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1123SubdomainMaxLength)
    errs.push(maxLenError(dns1123SubdomainMaxLength))
  if (!dns1123SubdomainRe.test(value))
    errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'))
  return errs
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength))
  if (!dns1035LabelRe.test(value))
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'))
  return errs
}

/** Keys of ConfigMap and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1123SubdomainMaxLength)
    errs.push(maxLenError(dns1123SubdomainMaxLength))
  if (!configMapKeyRe.test(value))
    errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'))
  if (value === '.') errs.push("must not be '.'")
  else if (value === '..') errs.push("must not be '..'")
  else if (value.startsWith('..')) errs.push("must not start with '..'")
  return errs
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)]
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = []
  if (byteLength(port) > 15) errs.push(maxLenError(15))
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)')
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)')
  if (port.includes('--')) errs.push('must not contain consecutive hyphens')
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-')))
    errs.push('must not begin or end with a hyphen')
  return errs
}

export function isValidPercent(percent: string): string[] {
  return percentRe.test(percent) ? [] : [regexError(percentErrMsg, percentFmt, '1%', '93%')]
}

/** Names that only have to be safe as one URL path segment (RBAC objects use this rule). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`]
  const errs: string[] = []
  if (name.includes('/')) errs.push("may not contain '/'")
  if (name.includes('%')) errs.push("may not contain '%'")
  return errs
}

// Field validators: one Invalid cause per problem, all on the same field

export function each(value: string, field: string, messages: string[]): FieldCause[] {
  return messages.map((m) => invalid(field, value, m))
}

export function validateDns1123Subdomain(value: string, field: string): FieldCause[] {
  return each(value, field, isDns1123Subdomain(value))
}

export function validateDns1123Label(value: string, field: string): FieldCause[] {
  return each(value, field, isDns1123Label(value))
}

export function validateDns1035Label(value: string, field: string): FieldCause[] {
  return each(value, field, isDns1035Label(value))
}

export function validateQualifiedName(value: string, field: string): FieldCause[] {
  return each(value, field, isQualifiedName(value))
}

export function validateNonnegative(value: number, field: string): FieldCause[] {
  return value < 0 ? [invalid(field, value, isNegativeErrorMsg)] : []
}

/** Label keys must be qualified names and values valid label values; every cause is on `field`. */
export function validateLabels(
  labels: Record<string, string> | null | undefined,
  field: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  for (const [k, v] of Object.entries(labels ?? {})) {
    causes.push(...each(k, field, isQualifiedName(k)))
    causes.push(...each(String(v), field, isValidLabelValue(String(v))))
  }
  return causes
}

/** Annotation keys are qualified names in any case; keys and values together stay within 256 KiB. */
export function validateAnnotations(
  annotations: Record<string, string> | null | undefined,
  field: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  let total = 0
  for (const [k, v] of Object.entries(annotations ?? {})) {
    causes.push(...each(k, field, isQualifiedName(k.toLowerCase())))
    total += byteLength(k) + byteLength(String(v))
  }
  if (total > totalAnnotationSizeLimit) causes.push(tooLong(field, totalAnnotationSizeLimit))
  return causes
}
