import type { KubeObject } from './types'
import { SelectorError } from './labels'
import { goQuote } from './go-format'

/**
 * Field selectors as k8s.io/apimachinery/pkg/fields parses them, and the per-kind field labels
 * kube-apiserver accepts (the field label conversion funcs) and fills in (each registry strategy's
 * selectable fields). The two lists are kept apart on purpose: upstream accepts some labels it
 * never fills in, and those match only an empty value.
 */

export type FieldOperator = '=' | '!='

export interface FieldRequirement {
  readonly field: string
  /** `==` parses to `=` */
  readonly operator: FieldOperator
  readonly value: string
}

export interface FieldSelector {
  /** ANDed, in the sorted order upstream parses terms */
  readonly requirements: readonly FieldRequirement[]
}

// ---------------------------------------------------------------------------------------------
// Parsing

// Terms split on commas not escaped with a backslash; the backslash stays for unescapeValue.
function splitTerms(s: string): string[] {
  if (!s) return []
  const terms: string[] = []
  let start = 0
  let inSlash = false
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (inSlash) inSlash = false
    else if (c === '\\') inSlash = true
    else if (c === ',') {
      terms.push(s.slice(start, i))
      start = i + 1
    }
  }
  terms.push(s.slice(start))
  return terms
}

// `!=` and `==` are tried before `=` at each position so `a==b` does not leave `=b` as the value.
function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)]
    }
  }
  return undefined
}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s
  let out = ''
  let inSlash = false
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`)
      out += c
      inSlash = false
    } else if (c === '\\') {
      inSlash = true
    } else if (c === ',' || c === '=') {
      // Go prints the offending rune with %v, which is its code point.
      throw new SelectorError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
      )
    } else {
      out += c
    }
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\')
  return out
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`)
}

/**
 * Parses a `fieldSelector` string: `field=value`, `field==value`, `field!=value`, comma-joined,
 * values may be empty and may escape `\`, `,` and `=` with a backslash. Throws SelectorError with
 * the message kube-apiserver returns.
 */
export function parseFieldSelector(s: string): FieldSelector {
  const parts = splitTerms(s).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const requirements: FieldRequirement[] = []
  for (const part of parts) {
    if (!part) continue
    const split = splitTerm(part)
    if (!split) throw new SelectorError(`invalid selector: '${s}'; can't understand '${part}'`)
    const [field, op, rhs] = split
    requirements.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeValue(rhs) })
  }
  return { requirements }
}

/** A field absent from `fieldValues` reads as the empty string, so `f=` matches it. */
export function matchesFields(sel: FieldSelector, fieldValues: Record<string, string>): boolean {
  return sel.requirements.every((r) => {
    const actual = Object.prototype.hasOwnProperty.call(fieldValues, r.field)
      ? fieldValues[r.field]
      : ''
    return r.operator === '=' ? actual === r.value : actual !== r.value
  })
}

export function fieldSelectorString(sel: FieldSelector): string {
  return sel.requirements
    .map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`)
    .join(',')
}

/** The value a selector pins `field` to with `=`, if it does (e.g. `metadata.name`). */
export function requiresExactMatch(sel: FieldSelector, field: string): string | undefined {
  return sel.requirements.find((r) => r.field === field && r.operator === '=')?.value
}

// ---------------------------------------------------------------------------------------------
// Per-kind field labels

type Values = (obj: KubeObject) => Record<string, string>

interface KindFields {
  /** metadata.namespace is accepted and filled in */
  namespaced: boolean
  /** labels accepted besides metadata.name and metadata.namespace */
  accepted: readonly string[]
  /** labels accepted under another name, rewritten before matching */
  aliases?: Readonly<Record<string, string>>
  values: Values
  reject?: (label: string) => string
}

function at(obj: unknown, path: string): unknown {
  let cur = obj
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

const str = (obj: KubeObject, path: string) => {
  const v = at(obj, path)
  return typeof v === 'string' ? v : ''
}
const bool = (obj: KubeObject, path: string) => (at(obj, path) === true ? 'true' : 'false')
const int = (obj: KubeObject, path: string) => {
  const v = at(obj, path)
  return typeof v === 'number' ? String(Math.trunc(v)) : '0'
}

const fieldLabelNotSupported = (label: string) => `field label not supported: ${label}`

const kinds: Record<string, KindFields> = {
  // pkg/apis/core/v1/conversion.go, pkg/registry/core/pod/strategy.go
  '/pods': {
    namespaced: true,
    accepted: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ],
    // Old v1 clients still send spec.host.
    aliases: { 'spec.host': 'spec.nodeName' },
    values: (o) => {
      const podIPs = at(o, 'status.podIPs')
      const first = Array.isArray(podIPs)
        ? (podIPs[0] as { ip?: unknown } | undefined)?.ip
        : undefined
      return {
        'spec.nodeName': str(o, 'spec.nodeName'),
        'spec.restartPolicy': str(o, 'spec.restartPolicy'),
        'spec.schedulerName': str(o, 'spec.schedulerName'),
        'spec.serviceAccountName': str(o, 'spec.serviceAccountName'),
        'spec.hostNetwork': bool(o, 'spec.hostNetwork'),
        'status.phase': str(o, 'status.phase'),
        // Upstream reads the first of status.podIPs, which status.podIP mirrors.
        'status.podIP': typeof first === 'string' ? first : str(o, 'status.podIP'),
        'status.nominatedNodeName': str(o, 'status.nominatedNodeName'),
      }
    },
  },
  '/nodes': {
    namespaced: false,
    accepted: ['spec.unschedulable'],
    values: (o) => ({ 'spec.unschedulable': bool(o, 'spec.unschedulable') }),
  },
  '/namespaces': {
    namespaced: false,
    accepted: ['status.phase'],
    values: (o) => ({ 'status.phase': str(o, 'status.phase') }),
  },
  '/replicationcontrollers': {
    namespaced: true,
    accepted: ['status.replicas'],
    values: (o) => ({ 'status.replicas': int(o, 'status.replicas') }),
  },
  '/events': {
    namespaced: true,
    accepted: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
    values: (o) => ({
      'involvedObject.kind': str(o, 'involvedObject.kind'),
      'involvedObject.namespace': str(o, 'involvedObject.namespace'),
      'involvedObject.name': str(o, 'involvedObject.name'),
      'involvedObject.uid': str(o, 'involvedObject.uid'),
      'involvedObject.apiVersion': str(o, 'involvedObject.apiVersion'),
      'involvedObject.resourceVersion': str(o, 'involvedObject.resourceVersion'),
      'involvedObject.fieldPath': str(o, 'involvedObject.fieldPath'),
      reason: str(o, 'reason'),
      reportingComponent: str(o, 'reportingComponent'),
      // New-style events carry only the reporting controller.
      source: str(o, 'source.component') || str(o, 'reportingComponent'),
      type: str(o, 'type'),
    }),
  },
  '/secrets': {
    namespaced: true,
    accepted: ['type'],
    values: (o) => ({ type: str(o, 'type') }),
  },
  '/services': {
    namespaced: true,
    accepted: ['spec.clusterIP', 'spec.type'],
    values: (o) => ({
      'spec.clusterIP': str(o, 'spec.clusterIP'),
      'spec.type': str(o, 'spec.type'),
    }),
  },
  // pkg/apis/batch/v1/conversion.go: the label is `successful`, the field `succeeded`.
  'batch/jobs': {
    namespaced: true,
    accepted: ['status.successful'],
    values: (o) => ({ 'status.successful': int(o, 'status.succeeded') }),
    reject: (label) => `field label ${goQuote(label)} not supported for Job`,
  },
  'certificates.k8s.io/certificatesigningrequests': {
    namespaced: false,
    accepted: ['spec.signerName'],
    values: (o) => ({ 'spec.signerName': str(o, 'spec.signerName') }),
  },
}

// Every other kind, custom resources included, takes only the metadata labels
// (runtime.DefaultMetaV1FieldSelectorConversion), with its own wording for anything else.
const metadataOnly: KindFields = {
  namespaced: true,
  accepted: [],
  values: () => ({}),
  reject: (label) =>
    `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
}

/**
 * Finds the kind behind a resource given as `pods`, `core/pods`, `batch/jobs` or `jobs.batch`;
 * a bare plural means the core group when core has it.
 */
function kindFields(resource: string, group?: string): KindFields {
  let g = group
  let plural = resource
  const slash = resource.indexOf('/')
  if (slash >= 0) {
    g = resource.slice(0, slash)
    plural = resource.slice(slash + 1)
  } else if (resource.includes('.')) {
    const dot = resource.indexOf('.')
    plural = resource.slice(0, dot)
    g = resource.slice(dot + 1)
  }
  if (g === 'core') g = ''
  if (g !== undefined) return kinds[`${g}/${plural}`] ?? metadataOnly
  return (
    kinds[`/${plural}`] ??
    Object.entries(kinds).find(([k]) => k.endsWith(`/${plural}`))?.[1] ??
    metadataOnly
  )
}

/** The field labels a resource accepts in a field selector. */
export function supportedFieldLabels(resource: string, group?: string): string[] {
  const k = kindFields(resource, group)
  return [
    'metadata.name',
    ...(k.namespaced ? ['metadata.namespace'] : []),
    ...k.accepted,
    ...Object.keys(k.aliases ?? {}),
  ]
}

/**
 * Checks every label against the resource's field labels and rewrites legacy aliases. Throws
 * SelectorError with upstream's wording for the first unsupported label, which kube-apiserver
 * answers with 400 BadRequest on list, watch and deletecollection alike.
 */
export function validateFieldSelector(
  resource: string,
  sel: FieldSelector,
  group?: string,
): FieldSelector {
  const k = kindFields(resource, group)
  const requirements = sel.requirements.map((r) => {
    if (
      r.field === 'metadata.name' ||
      (r.field === 'metadata.namespace' && k.namespaced) ||
      k.accepted.includes(r.field)
    )
      return r
    const alias = k.aliases?.[r.field]
    if (alias) return { ...r, field: alias }
    throw new SelectorError((k.reject ?? fieldLabelNotSupported)(r.field))
  })
  return { requirements }
}

/** The values a resource's objects offer to field selectors, by field label. */
export function fieldValuesFor(
  resource: string,
  obj: KubeObject,
  group?: string,
): Record<string, string> {
  const k = kindFields(resource, group)
  const values: Record<string, string> = { 'metadata.name': obj.metadata?.name ?? '' }
  if (k.namespaced) values['metadata.namespace'] = obj.metadata?.namespace ?? ''
  Object.assign(values, k.values(obj))
  // A selector matched without validateFieldSelector's rewrite still finds aliased labels.
  for (const [alias, target] of Object.entries(k.aliases ?? {}))
    values[alias] = values[target] ?? ''
  return values
}
