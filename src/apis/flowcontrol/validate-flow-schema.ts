/** ValidateFlowSchema (pkg/apis/flowcontrol/validation), after the object's metadata. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, isJsonObject, type Json } from '../../apimachinery/json-value'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { isDns1123Label, isDns1123Subdomain } from '../../apimachinery/field-formats'
import { exemptName, flowSchemaKind } from './names'
import { bootstrapObject, defaulted } from './bootstrap'
import { specEqual } from './semantic'
import { validateConditions } from './conditions'

export const maxMatchingPrecedence = 10000
const distinguisherMethods = ['ByNamespace', 'ByUser']
const subjectKinds = ['Group', 'ServiceAccount', 'User']
const supportedVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
]
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; "

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const strings = (v: unknown): string[] =>
  list(v).map((s) => (typeof s === 'string' ? s : String(s)))
const hasWildcard = (items: string[]) => items.includes('*')

export function validateFlowSchema(obj: KubeObject): FieldCause[] {
  const spec = asRecord(obj.spec)
  const name = obj.metadata.name ?? ''
  const causes = validateFlowSchemaSpec(name, spec)
  const mandatory = bootstrapObject(flowSchemaKind, name)
  if (mandatory?.mandatory && !specEqual(spec, defaulted(mandatory.object).spec)) {
    causes.push(invalid('spec', spec, `spec of '${name}' must equal the fixed value`))
  }
  return [...causes, ...validateConditions(obj)]
}

function validateFlowSchemaSpec(name: string, spec: Json): FieldCause[] {
  const causes: FieldCause[] = []
  const precedence = typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0
  if (precedence <= 0)
    causes.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'))
  if (precedence > maxMatchingPrecedence)
    causes.push(
      invalid(
        'spec.matchingPrecedence',
        precedence,
        `must not be greater than ${maxMatchingPrecedence}`,
      ),
    )
  if (precedence === 1 && name !== exemptName)
    causes.push(
      invalid(
        'spec.matchingPrecedence',
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    )
  if (isJsonObject(spec.distinguisherMethod)) {
    const type = String(spec.distinguisherMethod.type ?? '')
    if (!distinguisherMethods.includes(type))
      causes.push(
        notSupported(
          'spec.distinguisherMethod.type',
          spec.distinguisherMethod,
          distinguisherMethods,
          `flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(type)}}`,
        ),
      )
  }
  const level = String(asRecord(spec.priorityLevelConfiguration).name ?? '')
  if (level)
    for (const m of isDns1123Subdomain(level))
      causes.push(invalid('spec.priorityLevelConfiguration.name', level, m))
  else
    causes.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'))
  list(spec.rules).forEach((rule, i) =>
    causes.push(...validateRule(asRecord(rule), `spec.rules[${i}]`)),
  )
  return causes
}

function validateRule(rule: Json, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  const subjects = list(rule.subjects)
  if (subjects.length)
    subjects.forEach((s, i) => causes.push(...validateSubject(asRecord(s), `${at}.subjects[${i}]`)))
  else causes.push(required(`${at}.subjects`, 'subjects must contain at least one value'))
  const resourceRules = list(rule.resourceRules)
  const nonResourceRules = list(rule.nonResourceRules)
  if (!resourceRules.length && !nonResourceRules.length)
    causes.push(
      required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'),
    )
  resourceRules.forEach((r, i) =>
    causes.push(...validateResourceRule(asRecord(r), `${at}.resourceRules[${i}]`)),
  )
  nonResourceRules.forEach((r, i) =>
    causes.push(...validateNonResourceRule(asRecord(r), `${at}.nonResourceRules[${i}]`)),
  )
  return causes
}

const members = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' } as const

function validateSubject(subject: Json, at: string): FieldCause[] {
  const kind = String(subject.kind ?? '')
  const own = (Object.keys(members) as (keyof typeof members)[]).find((k) => members[k] === kind)
  if (!own) return [notSupported(`${at}.kind`, kind, subjectKinds)]
  const causes = validateMember(own, subject[own], `${at}.${own}`)
  for (const other of ['serviceAccount', 'user', 'group'] as const) {
    if (other !== own && subject[other] !== undefined && subject[other] !== null)
      causes.push(
        forbidden(
          `${at}.${other}`,
          `${other} is forbidden when subject kind is not '${members[other]}'`,
        ),
      )
  }
  return causes
}

function validateMember(member: keyof typeof members, value: unknown, at: string): FieldCause[] {
  if (!isJsonObject(value))
    return [required(at, `${member} is required when subject kind is '${members[member]}'`)]
  const name = String(value.name ?? '')
  const causes: FieldCause[] = []
  if (!name) causes.push(required(`${at}.name`))
  else if (member === 'serviceAccount' && name !== '*')
    for (const m of isDns1123Subdomain(name)) causes.push(invalid(`${at}.name`, name, m))
  if (member !== 'serviceAccount') return causes
  const namespace = String(value.namespace ?? '')
  if (namespace)
    for (const m of isDns1123Label(namespace)) causes.push(invalid(`${at}.namespace`, namespace, m))
  else causes.push(required(`${at}.namespace`, 'must specify namespace for service account'))
  return causes
}

function validateVerbs(verbs: string[], at: string): FieldCause[] {
  if (!verbs.length) return [required(`${at}.verbs`, 'verbs must contain at least one value')]
  if (hasWildcard(verbs))
    return verbs.length > 1
      ? [invalid(`${at}.verbs`, verbs, "if '*' is present, must not specify other verbs")]
      : []
  return verbs.every((v) => supportedVerbs.includes(v))
    ? []
    : [notSupported(`${at}.verbs`, verbs, supportedVerbs)]
}

function validateResourceRule(rule: Json, at: string): FieldCause[] {
  const causes = validateVerbs(strings(rule.verbs), at)
  const apiGroups = strings(rule.apiGroups)
  if (!apiGroups.length)
    causes.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'))
  else if (apiGroups.length > 1 && hasWildcard(apiGroups))
    causes.push(
      invalid(`${at}.apiGroups`, apiGroups, "if '*' is present, must not specify other api groups"),
    )
  const resources = strings(rule.resources)
  if (!resources.length)
    causes.push(required(`${at}.resources`, 'resource rules must supply at least one resource'))
  else if (resources.length > 1 && hasWildcard(resources))
    causes.push(
      invalid(`${at}.resources`, resources, "if '*' is present, must not specify other resources"),
    )
  const namespaces = strings(rule.namespaces)
  if (!namespaces.length && rule.clusterScope !== true)
    causes.push(
      required(
        `${at}.namespaces`,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    )
  else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1)
      causes.push(
        invalid(
          `${at}.namespaces`,
          namespaces,
          "if '*' is present, must not specify other namespaces",
        ),
      )
  } else
    namespaces.forEach((ns, i) =>
      isDns1123Label(ns).forEach((m) =>
        causes.push(invalid(`${at}.namespaces[${i}]`, ns, nsErrIntro + m)),
      ),
    )
  return causes
}

function validateNonResourceRule(rule: Json, at: string): FieldCause[] {
  const causes = validateVerbs(strings(rule.verbs), at)
  const urls = strings(rule.nonResourceURLs)
  if (!urls.length)
    causes.push(
      required(`${at}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'),
    )
  else if (hasWildcard(urls)) {
    if (urls.length > 1)
      causes.push(
        invalid(
          `${at}.nonResourceURLs`,
          urls,
          "if '*' is present, must not specify other non-resource URLs",
        ),
      )
  } else {
    urls.forEach((url, i) => {
      const problem = nonResourceUrlProblem(url)
      if (problem) causes.push(invalid(`${at}.nonResourceURLs[${i}]`, url, problem))
    })
  }
  return causes
}

/** ValidateNonResourceURLPath: a leading slash, no white-space or double slash, a `*` only as a last `/*`. */
export function nonResourceUrlProblem(path: string): string | undefined {
  if (!path) return 'must not be empty'
  if (path === '/') return undefined
  if (!path.startsWith('/')) return 'must start with slash'
  if (path.includes(' ')) return 'must not contain white-space'
  if (path.includes('//')) return 'must not contain double slash'
  const wildcards = path.split('*').length - 1
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*')))
    return 'wildcard can only do suffix matching'
  return undefined
}
