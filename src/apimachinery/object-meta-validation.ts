import { type FieldCause, forbidden, invalid, required } from './field-errors'
import type { ObjectMeta } from './types'
import {
  each,
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidPathSegmentName,
  validateAnnotations,
  validateLabels,
  validateNonnegative,
} from './field-formats'
import { goPointer, goQuote } from './go-format'

/** ObjectMeta: names by kind, labels, annotations, owner references and finalizers, as kube-apiserver checks them. */

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
  ['APIService', 'path-segment'],
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

export function validateObjectName(
  kind: string,
  name: string,
  field = 'metadata.name',
): FieldCause[] {
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
export function validateObjectMeta(
  kind: string,
  meta: ObjectMeta | undefined,
  opts: ObjectMetaOptions,
): FieldCause[] {
  const m = meta ?? {}
  const rule = opts.nameRule ?? nameRuleForKind(kind)
  const causes: FieldCause[] = []
  const generateName = typeof m.generateName === 'string' ? m.generateName : ''
  const name = typeof m.name === 'string' ? m.name : ''
  const namespace = typeof m.namespace === 'string' ? m.namespace : ''
  if (generateName)
    causes.push(...each(generateName, 'metadata.generateName', checkName(rule, generateName, true)))
  if (!name) causes.push(required('metadata.name', 'name or generateName is required'))
  else causes.push(...each(name, 'metadata.name', checkName(rule, name)))
  if (opts.namespaced) {
    if (!namespace) causes.push(required('metadata.namespace'))
    else causes.push(...each(namespace, 'metadata.namespace', isDns1123Label(namespace)))
  } else if (namespace) {
    causes.push(forbidden('metadata.namespace', 'not allowed on this type'))
  }
  if (typeof m.generation === 'number')
    causes.push(...validateNonnegative(m.generation, 'metadata.generation'))
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

export function validateOwnerReferences(
  refs: readonly unknown[] | undefined,
  field: string,
): FieldCause[] {
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
    if (!version)
      causes.push(invalid(`${field}.apiVersion`, apiVersion, 'version must not be empty'))
    if (!kind) causes.push(invalid(`${field}.kind`, kind, 'kind must not be empty'))
    if (!name) causes.push(invalid(`${field}.name`, name, 'name must not be empty'))
    if (!uid) causes.push(invalid(`${field}.uid`, uid, 'uid must not be empty'))
    // Events can never own anything: they are garbage themselves.
    if (group === '' && version === 'v1' && kind === 'Event') {
      causes.push(
        invalid(
          field,
          r,
          `${group}/${version}, Kind=${kind} is disallowed from being an owner`,
          goOwnerReference(r),
        ),
      )
    }
    if (r.controller === true) {
      const current = `${kind}/${name}`
      if (firstController) {
        const all = refs.map((x) => goOwnerReference((x ?? {}) as OwnerRefShape)).join(', ')
        causes.push(
          invalid(
            field,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
            `[]v1.OwnerReference{${all}}`,
          ),
        )
      } else {
        firstController = current
      }
    }
  }
  return causes
}

export function validateFinalizers(
  finalizers: readonly unknown[] | undefined,
  field: string,
): FieldCause[] {
  if (!Array.isArray(finalizers)) return []
  const causes: FieldCause[] = []
  const names = finalizers.map((f) => (typeof f === 'string' ? f : ''))
  for (const f of names) causes.push(...each(f, field, isQualifiedName(f)))
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    causes.push(invalid(field, names, 'finalizer orphan and foregroundDeletion cannot be both set'))
  }
  return causes
}
