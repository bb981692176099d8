import type { KubeObject } from '../../apimachinery/types'
import {
  duplicate,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { acceptedNames, crdSpecOf, type CrdNames, type CrdVersion } from './crd-object'
import type { JSONSchemaProps } from './schema'
import { checkStructural } from './structural'
import { validateValidationRules } from './cel-rules'
import {
  isDns1035Label,
  validateDns1035Label,
  validateDns1123Subdomain,
} from '../../apimachinery/field-formats'

const scopes = ['Cluster', 'Namespaced']
const columnTypes = ['integer', 'number', 'string', 'boolean', 'date']

/** apiextensions' create/update validation of a CustomResourceDefinition, for what the server acts on. */
export function validateCrd(crd: KubeObject): FieldCause[] {
  const spec = crdSpecOf(crd)
  const names = spec.names ?? {}
  const causes: FieldCause[] = []
  const name = crd.metadata.name ?? ''
  if (name && name !== `${names.plural ?? ''}.${spec.group ?? ''}`)
    causes.push(invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'))

  if (!spec.group) causes.push(required('spec.group'))
  else {
    causes.push(...validateDns1123Subdomain(spec.group, 'spec.group'))
    if (spec.group.split('.').length < 2)
      causes.push(invalid('spec.group', spec.group, 'should be a domain with at least one dot'))
  }
  if (!spec.scope) causes.push(required('spec.scope'))
  else if (!scopes.includes(spec.scope)) causes.push(notSupported('spec.scope', spec.scope, scopes))

  causes.push(...validateNames(names))
  causes.push(...validateVersions(spec.versions ?? []))
  return causes
}

/**
 * The required names (after v1 defaulting: singular from the kind, listKind `<Kind>List`), then
 * ValidateCustomResourceDefinitionNames: plural, singular, shortNames and categories are DNS-1035
 * labels (lowercase, starting with a letter), kind and listKind too once lowercased.
 */
function validateNames(given: CrdNames): FieldCause[] {
  const names = acceptedNames(given)
  const causes: FieldCause[] = []
  for (const key of ['plural', 'singular', 'kind', 'listKind'] as const)
    if (!names[key]) causes.push(required(`spec.names.${key}`))
  // An empty name was reported as required above; an empty short name or category is checked as it is.
  const label = (value: string, field: string, prefix = '') => {
    const problems = isDns1035Label(prefix ? value.toLowerCase() : value)
    if (problems.length) causes.push(invalid(field, value, prefix + problems.join(',')))
  }
  const mixedCase = 'may have mixed case, but should otherwise match: '
  if (names.plural) label(names.plural, 'spec.names.plural')
  if (names.singular) label(names.singular, 'spec.names.singular')
  if (names.kind) label(names.kind, 'spec.names.kind', mixedCase)
  if (names.listKind) label(names.listKind, 'spec.names.listKind', mixedCase)
  ;(names.shortNames ?? []).forEach((s, i) => label(String(s ?? ''), `spec.names.shortNames[${i}]`))
  if (names.kind && names.kind === names.listKind)
    causes.push(
      invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'),
    )
  ;(names.categories ?? []).forEach((c, i) => label(String(c ?? ''), `spec.names.categories[${i}]`))
  return causes
}

function validateVersions(versions: CrdVersion[]): FieldCause[] {
  const causes: FieldCause[] = []
  if (versions.length === 0)
    return [required('spec.versions', 'must have exactly one version marked as storage version')]
  const seen = new Set<string>()
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`
    if (!v.name) causes.push(required(`${path}.name`))
    else {
      causes.push(...validateDns1035Label(v.name, `${path}.name`))
      if (seen.has(v.name)) causes.push(duplicate(`${path}.name`, v.name))
      seen.add(v.name)
    }
    const schema = v.schema?.openAPIV3Schema
    if (!schema) causes.push(required(`${path}.schema.openAPIV3Schema`, 'schemas are required'))
    else {
      causes.push(...checkStructural(schema as JSONSchemaProps, `${path}.schema.openAPIV3Schema`))
      causes.push(
        ...validateValidationRules(schema as JSONSchemaProps, `${path}.schema.openAPIV3Schema`),
      )
    }
    ;(v.additionalPrinterColumns ?? []).forEach((c, j) => {
      const col = `${path}.additionalPrinterColumns[${j}]`
      if (!c.name) causes.push(required(`${col}.name`))
      if (!c.jsonPath) causes.push(required(`${col}.jsonPath`))
      if (!c.type) causes.push(required(`${col}.type`))
      else if (!columnTypes.includes(String(c.type)))
        causes.push(notSupported(`${col}.type`, c.type, columnTypes))
    })
    const scale = v.subresources?.scale
    if (scale) {
      if (!scale.specReplicasPath)
        causes.push(required(`${path}.subresources.scale.specReplicasPath`))
      if (!scale.statusReplicasPath)
        causes.push(required(`${path}.subresources.scale.statusReplicasPath`))
    }
  })
  const storage = versions.filter((v) => v.storage).length
  if (storage !== 1)
    causes.push(
      invalid(
        'spec.versions',
        versions.map((v) => v.name),
        'must have exactly one version marked as storage version',
      ),
    )
  if (!versions.some((v) => v.served))
    causes.push(
      invalid(
        'spec.versions',
        versions.map((v) => v.name),
        'must have at least one version marked as served',
      ),
    )
  return causes
}

const approvalAnnotation = 'api-approved.kubernetes.io'
const enhancement = 'see https://github.com/kubernetes/enhancements/pull/1111'

/** Groups of the Kubernetes project itself (`*.k8s.io`, `*.kubernetes.io`): a CRD there needs API approval. */
export function isProtectedGroup(group: string): boolean {
  return (
    group === 'k8s.io' ||
    group.endsWith('.k8s.io') ||
    group === 'kubernetes.io' ||
    group.endsWith('.kubernetes.io')
  )
}

type Approval = 'approved' | 'bypassed' | 'missing' | 'invalid'

function approvalOf(crd: KubeObject): { state: Approval; value: string } {
  const value = crd.metadata.annotations?.[approvalAnnotation] ?? ''
  if (!value) return { state: 'missing', value }
  if (value.startsWith('unapproved')) return { state: 'bypassed', value }
  return { state: isAbsoluteUrl(value) ? 'approved' : 'invalid', value }
}

/** Go's url.ParseRequestURI with a scheme and a host. */
function isAbsoluteUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol.length > 1 && url.host.length > 0
  } catch {
    return false
  }
}

/**
 * apiextensions' API approval: a CRD in a protected group carries `api-approved.kubernetes.io`
 * with a URL or a reason starting with "unapproved". An update that leaves the approval state as
 * it was is never refused, so older CRDs can still be changed and deleted.
 */
export function validateApiApproval(crd: KubeObject, old?: KubeObject): FieldCause[] {
  if (!isProtectedGroup(crdSpecOf(crd).group ?? '')) return []
  const { state, value } = approvalOf(crd)
  if (old && approvalOf(old).state === state) return []
  const field = `metadata.annotations[${approvalAnnotation}]`
  if (state === 'missing')
    return [
      required(
        field,
        `protected groups must have approval annotation "${approvalAnnotation}", ${enhancement}`,
      ),
    ]
  if (state === 'invalid') {
    return [
      invalid(
        field,
        value,
        `protected groups must have approval annotation "${approvalAnnotation}" with either a URL or a reason starting with "unapproved", ${enhancement}`,
      ),
    ]
  }
  return []
}

/** Fields a CRD may not change once created. */
export function validateCrdUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const a = crdSpecOf(old)
  const b = crdSpecOf(next)
  const causes: FieldCause[] = []
  if (a.group !== b.group) causes.push(invalid('spec.group', b.group ?? '', 'field is immutable'))
  if (a.scope !== b.scope) causes.push(invalid('spec.scope', b.scope ?? '', 'field is immutable'))
  if (a.names?.plural !== b.names?.plural)
    causes.push(invalid('spec.names.plural', b.names?.plural ?? '', 'field is immutable'))
  causes.push(...validateApiApproval(next, old))
  return causes
}
