import type { ObjectMeta, StatusCause } from './types'

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
const valueless = new Set<CauseReason>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError'])

// ---------------------------------------------------------------------------------------------
// Constructors, one per field.ErrorType

export function invalid(field: string, value: unknown, message: string, display?: string): FieldCause {
  return withDisplay({ field, reason: 'FieldValueInvalid', message, value }, display)
}

/** A value of the wrong JSON type (field.TypeInvalid). */
export function typeInvalid(field: string, value: unknown, message: string, display?: string): FieldCause {
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
export function notSupported(field: string, value: unknown, supported: readonly string[], display?: string): FieldCause {
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

// ---------------------------------------------------------------------------------------------
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
export function invalidMessage(qualifiedKind: string, name: string, causes: readonly FieldCause[]): string {
  const head = `${qualifiedKind} ${goQuote(name)} is invalid`
  return causes.length ? `${head}: ${aggregateMessage(causes)}` : head
}

/** A bad value as field.Error prints it when no Go rendering was supplied. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return goQuote(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return goStringSlice(value)
  if (isStringMap(value)) return goStringMap(value)
  return JSON.stringify(value)
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')
}

/** Go's %q: double quotes, backslash escapes for quotes, backslashes and control characters. */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const code = ch.codePointAt(0)!
    switch (ch) {
      case '"': out += '\\"'; break
      case '\\': out += '\\\\'; break
      case '\n': out += '\\n'; break
      case '\r': out += '\\r'; break
      case '\t': out += '\\t'; break
      case '\x07': out += '\\a'; break
      case '\b': out += '\\b'; break
      case '\f': out += '\\f'; break
      case '\v': out += '\\v'; break
      default:
        if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
        else if (code >= 0x80 && code < 0xa0) out += `\\u${code.toString(16).padStart(4, '0')}`
        else out += ch
    }
  }
  return out + '"'
}

function goSortedKeys(m: Record<string, string>): string[] {
  // Go orders map keys by bytes; code-unit order agrees for the ASCII keys labels allow.
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** %#v of a map[string]string, nil when absent: `map[string]string{"app":"web", "tier":"db"}`. */
export function goStringMap(m: Record<string, string> | null | undefined): string {
  if (m === null || m === undefined) return 'map[string]string(nil)'
  return `map[string]string{${goSortedKeys(m).map((k) => `${goQuote(k)}:${goQuote(m[k])}`).join(', ')}}`
}

/** %#v of a []string, nil when absent: `[]string{"a", "b"}`. */
export function goStringSlice(a: readonly string[] | null | undefined): string {
  if (a === null || a === undefined) return '[]string(nil)'
  return `[]string{${a.map(goQuote).join(', ')}}`
}

/** %#v of an intstr.IntOrString. */
export function goIntOrString(v: number | string): string {
  return typeof v === 'number'
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`
}

/** Go prints a non-nil pointer nested in a struct as its address; any address reads the same to a person. */
export function goPointer(type: string, present: boolean): string {
  return `(*${type})(${present ? '0xc000000000' : 'nil'})`
}

// ---------------------------------------------------------------------------------------------
// String format checks (k8s.io/apimachinery/pkg/util/validation): each returns the list of
// problems, empty when the value is fine.

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`)
const labelValueFmt = `(${qualifiedNameFmt})?`
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const labelValueRe = new RegExp(`^${labelValueFmt}$`)
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`)
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`)
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?'
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`)
const configMapKeyFmt = '[-._a-zA-Z0-9]+'
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
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
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`)
  return errs
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength))
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'))
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
  if (byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength))
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'))
  return errs
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength))
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'))
  return errs
}

/** Keys of ConfigMap and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = []
  if (byteLength(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength))
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'))
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
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)')
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)')
  if (port.includes('--')) errs.push('must not contain consecutive hyphens')
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen')
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

// ---------------------------------------------------------------------------------------------
// Field validators: one Invalid cause per problem, all on the same field

function each(value: string, field: string, messages: string[]): FieldCause[] {
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
export function validateLabels(labels: Record<string, string> | null | undefined, field: string): FieldCause[] {
  const causes: FieldCause[] = []
  for (const [k, v] of Object.entries(labels ?? {})) {
    causes.push(...each(k, field, isQualifiedName(k)))
    causes.push(...each(String(v), field, isValidLabelValue(String(v))))
  }
  return causes
}

/** Annotation keys are qualified names in any case; keys and values together stay within 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | null | undefined, field: string): FieldCause[] {
  const causes: FieldCause[] = []
  let total = 0
  for (const [k, v] of Object.entries(annotations ?? {})) {
    causes.push(...each(k, field, isQualifiedName(k.toLowerCase())))
    total += byteLength(k) + byteLength(String(v))
  }
  if (total > totalAnnotationSizeLimit) causes.push(tooLong(field, totalAnnotationSizeLimit))
  return causes
}

// ---------------------------------------------------------------------------------------------
// Object names

export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment'

// Kinds whose names follow a rule other than the DNS-1123 subdomain most kinds use.
const nameRules = new Map<string, NameRule>([
  ['Namespace', 'dns1123-label'],
  ['Service', 'dns1035-label'],
  ['StatefulSet', 'dns1123-label'],
  ['Role', 'path-segment'],
  ['ClusterRole', 'path-segment'],
  ['RoleBinding', 'path-segment'],
  ['ClusterRoleBinding', 'path-segment'],
  ['PersistentVolume', 'path-segment'],
])

export function nameRuleForKind(kind: string): NameRule {
  return nameRules.get(kind) ?? 'dns1123-subdomain'
}

// A generateName prefix gets a suffix appended, so a trailing dash is allowed; upstream masks it
// by replacing the last two characters with 'a'.
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name
}

/** The problems with a name under a rule; `prefix` checks a generateName. */
export function checkName(rule: NameRule, name: string, prefix = false): string[] {
  switch (rule) {
    case 'dns1123-label':
      return isDns1123Label(prefix ? maskTrailingDash(name) : name)
    case 'dns1035-label':
      return isDns1035Label(prefix ? maskTrailingDash(name) : name)
    case 'path-segment':
      if (prefix) return isValidPathSegmentName(name).filter((m) => m.startsWith('may not contain'))
      return isValidPathSegmentName(name)
    default:
      return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name)
  }
}

export function validateObjectName(kind: string, name: string, field = 'metadata.name'): FieldCause[] {
  return each(name, field, checkName(nameRuleForKind(kind), name))
}

export interface ObjectMetaOptions {
  namespaced: boolean
  /** overrides the kind's name rule */
  nameRule?: NameRule
}

/**
 * ObjectMeta on create (apimachinery ValidateObjectMetaAccessor): the name (generated names
 * already filled in), namespace, generation, labels, annotations, owner references and finalizers.
 */
export function validateObjectMeta(kind: string, meta: ObjectMeta | undefined, opts: ObjectMetaOptions): FieldCause[] {
  const m = meta ?? {}
  const rule = opts.nameRule ?? nameRuleForKind(kind)
  const causes: FieldCause[] = []
  const generateName = typeof m.generateName === 'string' ? m.generateName : ''
  const name = typeof m.name === 'string' ? m.name : ''
  const namespace = typeof m.namespace === 'string' ? m.namespace : ''
  if (generateName) causes.push(...each(generateName, 'metadata.generateName', checkName(rule, generateName, true)))
  if (!name) causes.push(required('metadata.name', 'name or generateName is required'))
  else causes.push(...each(name, 'metadata.name', checkName(rule, name)))
  if (opts.namespaced) {
    if (!namespace) causes.push(required('metadata.namespace'))
    else causes.push(...each(namespace, 'metadata.namespace', isDns1123Label(namespace)))
  } else if (namespace) {
    causes.push(forbidden('metadata.namespace', 'not allowed on this type'))
  }
  if (typeof m.generation === 'number') causes.push(...validateNonnegative(m.generation, 'metadata.generation'))
  causes.push(...validateLabels(m.labels, 'metadata.labels'))
  causes.push(...validateAnnotations(m.annotations, 'metadata.annotations'))
  causes.push(...validateOwnerReferences(m.ownerReferences, 'metadata.ownerReferences'))
  causes.push(...validateFinalizers(m.finalizers, 'metadata.finalizers'))
  return causes
}

interface OwnerRefShape {
  apiVersion?: unknown
  kind?: unknown
  name?: unknown
  uid?: unknown
  controller?: unknown
  blockOwnerDeletion?: unknown
}

function goOwnerReference(r: OwnerRefShape): string {
  const s = (v: unknown) => goQuote(typeof v === 'string' ? v : '')
  return `v1.OwnerReference{APIVersion:${s(r.apiVersion)}, Kind:${s(r.kind)}, Name:${s(r.name)}, UID:${s(r.uid)}, Controller:${goPointer('bool', typeof r.controller === 'boolean')}, BlockOwnerDeletion:${goPointer('bool', typeof r.blockOwnerDeletion === 'boolean')}}`
}

export function validateOwnerReferences(refs: readonly unknown[] | undefined, field: string): FieldCause[] {
  if (!Array.isArray(refs)) return []
  const causes: FieldCause[] = []
  let firstController = ''
  for (const raw of refs) {
    const r = (raw ?? {}) as OwnerRefShape
    const apiVersion = typeof r.apiVersion === 'string' ? r.apiVersion : ''
    const kind = typeof r.kind === 'string' ? r.kind : ''
    const name = typeof r.name === 'string' ? r.name : ''
    const uid = typeof r.uid === 'string' ? r.uid : ''
    const slash = apiVersion.lastIndexOf('/')
    const group = slash >= 0 ? apiVersion.slice(0, slash) : ''
    const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion
    if (!version) causes.push(invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'))
    if (!kind) causes.push(invalid(`${field}.kind`, kind, 'kind must not be empty'))
    if (!name) causes.push(invalid(`${field}.name`, name, 'name must not be empty'))
    if (!uid) causes.push(invalid(`${field}.uid`, uid, 'uid must not be empty'))
    // Events can never own anything: they are garbage themselves.
    if (group === '' && version === 'v1' && kind === 'Event') {
      causes.push(invalid(field, r, `${group}/${version}, Kind=${kind} is disallowed from being an owner`, goOwnerReference(r)))
    }
    if (r.controller === true) {
      const current = `${kind}/${name}`
      if (firstController) {
        const all = refs.map((x) => goOwnerReference((x ?? {}) as OwnerRefShape)).join(', ')
        causes.push(
          invalid(field, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`, `[]v1.OwnerReference{${all}}`),
        )
      } else {
        firstController = current
      }
    }
  }
  return causes
}

export function validateFinalizers(finalizers: readonly unknown[] | undefined, field: string): FieldCause[] {
  if (!Array.isArray(finalizers)) return []
  const causes: FieldCause[] = []
  const names = finalizers.map((f) => (typeof f === 'string' ? f : ''))
  for (const f of names) causes.push(...each(f, field, isQualifiedName(f)))
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    causes.push(invalid(field, names, 'finalizer orphan and foregroundDeletion cannot be both set'))
  }
  return causes
}
