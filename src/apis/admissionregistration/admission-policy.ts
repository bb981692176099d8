/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: the fields the server acts on,
 * their defaults (SetDefaults_ValidatingAdmissionPolicySpec and _MatchResources) and
 * validation (ValidateValidatingAdmissionPolicy and ValidateValidatingAdmissionPolicyBinding in
 * k8s.io/kubernetes/pkg/apis/admissionregistration/validation), which compiles every expression.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import {
  isDns1035Label,
  isDns1123Subdomain,
  isValidPathSegmentName,
  validateQualifiedName,
} from '../../apimachinery/field-formats'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { validateMetaLabelSelector } from '../validation/selectors'
import type { WebhookRule } from './webhook-configuration'
import { validateRule } from './webhook-configuration'
import { compileExpression, policyScope, type CelScope, type ExpressionResult } from './cel'
import { validateMatchConditions, type MatchCondition } from './match-conditions'

export interface NamedRule extends WebhookRule {
  resourceNames?: string[]
}

export interface MatchResources {
  namespaceSelector?: MetaLabelSelector
  objectSelector?: MetaLabelSelector
  resourceRules?: NamedRule[]
  excludeResourceRules?: NamedRule[]
  matchPolicy?: 'Exact' | 'Equivalent'
}

export interface PolicyValidation {
  expression: string
  message?: string
  reason?: string
  messageExpression?: string
}

export type NamedExpression = MatchCondition

export interface AdmissionPolicy extends KubeObject {
  spec?: {
    paramKind?: { apiVersion?: string; kind?: string }
    matchConstraints?: MatchResources
    validations?: PolicyValidation[]
    failurePolicy?: 'Fail' | 'Ignore'
    auditAnnotations?: { key: string; valueExpression: string }[]
    matchConditions?: NamedExpression[]
    variables?: NamedExpression[]
  }
}

export interface ParamRef {
  name?: string
  namespace?: string
  selector?: MetaLabelSelector
  parameterNotFoundAction?: 'Allow' | 'Deny'
}

export interface AdmissionPolicyBinding extends KubeObject {
  spec?: {
    policyName?: string
    paramRef?: ParamRef
    matchResources?: MatchResources
    validationActions?: ('Deny' | 'Warn' | 'Audit')[]
  }
}

export const policyKind = 'ValidatingAdmissionPolicy'
export const bindingKind = 'ValidatingAdmissionPolicyBinding'

/** The reasons a validation may give, and the HTTP codes they answer with. */
export const validationReasons: Record<string, number> = {
  Unauthorized: 401,
  Forbidden: 403,
  Invalid: 422,
  RequestEntityTooLarge: 413,
}

const validationActions = ['Audit', 'Deny', 'Warn']

function defaultMatchResources(match: MatchResources | undefined): void {
  if (!match || typeof match !== 'object') return
  match.namespaceSelector ??= {}
  match.objectSelector ??= {}
  match.matchPolicy ??= 'Equivalent'
  for (const rule of [...(match.resourceRules ?? []), ...(match.excludeResourceRules ?? [])])
    if (rule && typeof rule === 'object') rule.scope ??= '*'
}

export function defaultAdmissionPolicyObject(kind: string, obj: KubeObject): void {
  if (kind === policyKind) {
    const spec = (obj as AdmissionPolicy).spec
    if (!spec || typeof spec !== 'object') return
    spec.failurePolicy ??= 'Fail'
    defaultMatchResources(spec.matchConstraints)
    return
  }
  const spec = (obj as AdmissionPolicyBinding).spec
  if (!spec || typeof spec !== 'object') return
  defaultMatchResources(spec.matchResources)
}

export function validateAdmissionPolicyObject(kind: string, obj: KubeObject): FieldCause[] {
  return kind === policyKind
    ? validatePolicy(obj as AdmissionPolicy)
    : validateBinding(obj as AdmissionPolicyBinding)
}

function compiles(
  expression: string | undefined,
  at: string,
  result: ExpressionResult,
  scope: CelScope,
): FieldCause[] {
  if (!expression?.trim()) return [required(at, 'expression is not specified')]
  const compiled = compileExpression(expression, result, scope)
  return compiled.ok ? [] : [invalid(at, expression, compiled.error)]
}

function validatePolicy(policy: AdmissionPolicy): FieldCause[] {
  const spec = policy.spec ?? {}
  const scope = policyScope(!!spec.paramKind)
  const causes: FieldCause[] = []
  if (spec.failurePolicy === undefined) causes.push(required('spec.failurePolicy'))
  else if (!['Fail', 'Ignore'].includes(spec.failurePolicy))
    causes.push(notSupported('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']))
  if (spec.paramKind) causes.push(...validateParamKind(spec.paramKind))
  if (!spec.matchConstraints) causes.push(required('spec.matchConstraints'))
  else {
    causes.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'))
    if (!spec.matchConstraints.resourceRules?.length)
      causes.push(required('spec.matchConstraints.resourceRules'))
  }
  causes.push(...validateMatchConditions(spec.matchConditions, 'spec.matchConditions', scope))
  for (const [i, v] of (spec.variables ?? []).entries()) {
    const at = `spec.variables[${i}]`
    if (!v.name?.trim()) causes.push(required(`${at}.name`, 'name is not specified'))
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(v.name) || celReserved.has(v.name))
      causes.push(invalid(`${at}.name`, v.name, 'name is not a valid CEL identifier'))
    causes.push(...compiles(v.expression, `${at}.expression`, 'any', scope))
  }
  if (!spec.validations?.length && !spec.auditAnnotations?.length) {
    causes.push(
      required(
        'spec.validations',
        'validations or auditAnnotations must contain at least one item',
      ),
    )
    causes.push(
      required(
        'spec.auditAnnotations',
        'validations or auditAnnotations must contain at least one item',
      ),
    )
    return causes
  }
  for (const [i, v] of (spec.validations ?? []).entries()) {
    const at = `spec.validations[${i}]`
    causes.push(...compiles(v.expression, `${at}.expression`, 'bool', scope))
    if (
      v.messageExpression !== undefined &&
      v.messageExpression.length &&
      !v.messageExpression.trim()
    )
      causes.push(
        invalid(`${at}.messageExpression`, v.messageExpression, 'must be non-empty if specified'),
      )
    else if (v.messageExpression?.trim())
      causes.push(
        ...compiles(
          v.messageExpression,
          `${at}.messageExpression`,
          'string',
          policyScope(!!spec.paramKind, false),
        ),
      )
    if (v.message !== undefined && v.message.length && !v.message.trim())
      causes.push(invalid(`${at}.message`, v.message, 'message must be non-empty if specified'))
    else if (v.message !== undefined && /[\n\r]/.test(v.message.trim()))
      causes.push(invalid(`${at}.message`, v.message, 'message must not contain line breaks'))
    if (v.reason !== undefined && !(v.reason in validationReasons))
      causes.push(notSupported(`${at}.reason`, v.reason, Object.keys(validationReasons).sort()))
  }
  const keys = new Set<string>()
  for (const [i, annotation] of (spec.auditAnnotations ?? []).entries()) {
    const at = `spec.auditAnnotations[${i}]`
    causes.push(
      ...validateQualifiedName(
        `${policy.metadata.name ?? ''}/${annotation.key ?? ''}`,
        `${at}.key`,
      ),
    )
    if (keys.has(annotation.key)) causes.push(duplicate(`${at}.key`, annotation.key))
    keys.add(annotation.key)
    if (!annotation.valueExpression?.trim())
      causes.push(required(`${at}.valueExpression`, 'valueExpression is not specified'))
    else causes.push(...compiles(annotation.valueExpression, `${at}.valueExpression`, 'any', scope))
  }
  return causes
}

/** CEL's reserved words, which may not name a variable. */
const celReserved = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
])

function validateParamKind(kind: { apiVersion?: string; kind?: string }): FieldCause[] {
  const causes: FieldCause[] = []
  const apiVersion = kind.apiVersion ?? ''
  if (!apiVersion) causes.push(required('spec.paramKind.apiVersion'))
  else {
    const parts = apiVersion.split('/')
    if (parts.length > 2)
      causes.push(
        invalid(
          'spec.paramKind.apiVersion',
          apiVersion,
          `unexpected GroupVersion string: ${apiVersion}`,
        ),
      )
    else {
      const [group, version] = parts.length === 2 ? (parts as [string, string]) : ['', parts[0]!]
      if (group)
        for (const msg of isDns1123Subdomain(group))
          causes.push(invalid('spec.paramKind.apiVersion', group, msg))
      if (!version)
        causes.push(invalid('spec.paramKind.apiVersion', apiVersion, 'version must be specified'))
      else
        for (const msg of isDns1035Label(version))
          causes.push(invalid('spec.paramKind.apiVersion', version, msg))
    }
  }
  if (!kind.kind) causes.push(required('spec.paramKind.kind'))
  else {
    const errs = isDns1035Label(kind.kind.toLowerCase())
    if (errs.length)
      causes.push(
        invalid(
          'spec.paramKind.kind',
          kind.kind,
          `may have mixed case, but should otherwise match: ${errs.join(',')}`,
        ),
      )
  }
  return causes
}

function validateMatchResources(match: MatchResources, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (match.matchPolicy !== undefined && !['Equivalent', 'Exact'].includes(match.matchPolicy))
    causes.push(notSupported(`${at}.matchPolicy`, match.matchPolicy, ['Equivalent', 'Exact']))
  causes.push(...validateMetaLabelSelector(match.namespaceSelector, `${at}.namespaceSelector`))
  causes.push(...validateMetaLabelSelector(match.objectSelector, `${at}.objectSelector`))
  for (const field of ['resourceRules', 'excludeResourceRules'] as const) {
    for (const [j, rule] of (match[field] ?? []).entries()) {
      const names = new Set<string>()
      for (const [k, name] of (rule.resourceNames ?? []).entries()) {
        for (const msg of isValidPathSegmentName(name))
          causes.push(invalid(`${at}.${field}[${j}].resourceNames[${k}]`, name, msg))
        if (names.has(name))
          causes.push(duplicate(`${at}.${field}[${j}].resourceNames[${k}]`, name))
        names.add(name)
      }
      causes.push(...validateRule(rule, `${at}.${field}[${j}]`))
    }
  }
  return causes
}

function validateBinding(binding: AdmissionPolicyBinding): FieldCause[] {
  const spec = binding.spec ?? {}
  const causes: FieldCause[] = []
  if (!spec.policyName) causes.push(required('spec.policyName'))
  else
    for (const msg of isDns1123Subdomain(spec.policyName))
      causes.push(invalid('spec.policyName', spec.policyName, msg))
  const ref = spec.paramRef
  if (ref) {
    if (ref.name) {
      for (const msg of isValidPathSegmentName(ref.name))
        causes.push(invalid('spec.paramRef.name', ref.name, msg))
      if (ref.selector)
        causes.push(forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'))
    }
    if (ref.selector) {
      causes.push(...validateMetaLabelSelector(ref.selector, 'spec.paramRef.selector'))
      if (ref.name)
        causes.push(forbidden('spec.paramRef.selector', 'name and selector are mutually exclusive'))
    }
    if (!ref.name && !ref.selector)
      causes.push(required('spec.paramRef', 'one of name or selector must be specified'))
    if (!ref.parameterNotFoundAction) causes.push(required('spec.paramRef.parameterNotFoundAction'))
    else if (!['Allow', 'Deny'].includes(ref.parameterNotFoundAction))
      causes.push(
        notSupported('spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, [
          'Deny',
          'Allow',
        ]),
      )
  }
  if (spec.matchResources)
    causes.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'))
  const actions = spec.validationActions ?? []
  const seen = new Set<string>()
  for (const [i, action] of actions.entries()) {
    if (!validationActions.includes(action))
      causes.push(notSupported(`spec.validationActions[${i}]`, action, validationActions))
    if (seen.has(action)) causes.push(duplicate(`spec.validationActions[${i}]`, action))
    seen.add(action)
  }
  if (seen.has('Deny') && seen.has('Warn'))
    causes.push(
      invalid(
        'spec.validationActions',
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    )
  if (!seen.size)
    causes.push(required('spec.validationActions', 'at least one validation action is required'))
  return causes
}
