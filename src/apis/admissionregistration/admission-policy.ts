/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: the fields the server acts on,
 * their defaults (SetDefaults_ValidatingAdmissionPolicySpec, _MatchResources, _ParamRef) and
 * validation (ValidateValidatingAdmissionPolicy and ValidateValidatingAdmissionPolicyBinding in
 * k8s.io/kubernetes/pkg/apis/admissionregistration/validation), which compiles every expression.
 */
import type { KubeObject } from '../../apimachinery/types'
import { duplicate, forbidden, invalid, notSupported, required, type FieldCause } from '../../apimachinery/validation'
import { validateQualifiedName } from '../../apimachinery/field-formats'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { validateMetaLabelSelector } from '../validation/selectors'
import type { WebhookRule } from './webhook-configuration'
import { validateRule } from './webhook-configuration'
import { compileExpression, type ExpressionResult } from './cel'

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

export interface NamedExpression {
  name: string
  expression: string
}

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
export const isAdmissionPolicyKind = (kind: string) => kind === policyKind || kind === bindingKind

/** The reasons a validation may give, and the HTTP codes they answer with. */
export const validationReasons: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 }

const validationActions = ['Audit', 'Deny', 'Warn']

function defaultMatchResources(match: MatchResources | undefined): void {
  if (!match || typeof match !== 'object') return
  match.namespaceSelector ??= {}
  match.objectSelector ??= {}
  match.matchPolicy ??= 'Equivalent'
  for (const rule of [...(match.resourceRules ?? []), ...(match.excludeResourceRules ?? [])]) if (rule && typeof rule === 'object') rule.scope ??= '*'
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
  if (spec.paramRef && typeof spec.paramRef === 'object') spec.paramRef.parameterNotFoundAction ??= 'Deny'
}

export function validateAdmissionPolicyObject(kind: string, obj: KubeObject): FieldCause[] {
  return kind === policyKind ? validatePolicy(obj as AdmissionPolicy) : validateBinding(obj as AdmissionPolicyBinding)
}

function compiles(expression: string | undefined, at: string, result: ExpressionResult): FieldCause[] {
  if (!expression?.trim()) return [required(at, 'expression is not specified')]
  const compiled = compileExpression(expression, result)
  return compiled.ok ? [] : [invalid(at, expression, compiled.error)]
}

function validatePolicy(policy: AdmissionPolicy): FieldCause[] {
  const spec = policy.spec ?? {}
  const causes: FieldCause[] = []
  if (spec.paramKind) {
    if (!spec.paramKind.apiVersion) causes.push(required('spec.paramKind.apiVersion'))
    else if (spec.paramKind.apiVersion.split('/').length > 2) causes.push(invalid('spec.paramKind.apiVersion', spec.paramKind.apiVersion, 'must be of the form "group/version" or "version"'))
    if (!spec.paramKind.kind) causes.push(required('spec.paramKind.kind'))
  }
  if (!spec.matchConstraints) causes.push(required('spec.matchConstraints'))
  else {
    causes.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'))
    if (!spec.matchConstraints.resourceRules?.length) causes.push(required('spec.matchConstraints.resourceRules'))
  }
  if (!spec.validations?.length && !spec.auditAnnotations?.length) causes.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'))
  if (spec.failurePolicy !== undefined && !['Fail', 'Ignore'].includes(spec.failurePolicy)) causes.push(notSupported('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']))
  causes.push(...validateNamedExpressions(spec.variables, 'spec.variables', 'any', true))
  causes.push(...validateNamedExpressions(spec.matchConditions, 'spec.matchConditions', 'bool', false))
  for (const [i, v] of (spec.validations ?? []).entries()) {
    const at = `spec.validations[${i}]`
    causes.push(...compiles(v.expression, `${at}.expression`, 'bool'))
    if (v.messageExpression !== undefined) causes.push(...compiles(v.messageExpression, `${at}.messageExpression`, 'string'))
    if (v.message !== undefined && v.message.includes('\n')) causes.push(invalid(`${at}.message`, v.message, 'message must not contain line breaks'))
    else if (v.message !== undefined && !v.message.trim()) causes.push(invalid(`${at}.message`, v.message, 'message must be non-empty if specified'))
    if (v.reason !== undefined && !(v.reason in validationReasons)) causes.push(notSupported(`${at}.reason`, v.reason, Object.keys(validationReasons).sort()))
  }
  for (const [i, annotation] of (spec.auditAnnotations ?? []).entries()) {
    if (!annotation.key) causes.push(required(`spec.auditAnnotations[${i}].key`))
    causes.push(...compiles(annotation.valueExpression, `spec.auditAnnotations[${i}].valueExpression`, 'any'))
  }
  return causes
}

function validateNamedExpressions(items: NamedExpression[] | undefined, at: string, result: ExpressionResult, identifiers: boolean): FieldCause[] {
  const causes: FieldCause[] = []
  const seen = new Set<string>()
  for (const [i, item] of (items ?? []).entries()) {
    const here = `${at}[${i}]`
    if (!item.name) causes.push(required(`${here}.name`))
    else {
      if (identifiers && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.name)) causes.push(invalid(`${here}.name`, item.name, 'name is not a valid CEL identifier'))
      if (!identifiers) causes.push(...validateQualifiedName(item.name, `${here}.name`))
      if (seen.has(item.name)) causes.push(duplicate(`${here}.name`, item.name))
      seen.add(item.name)
    }
    causes.push(...compiles(item.expression, `${here}.expression`, result))
  }
  if (!identifiers && (items?.length ?? 0) > 64) causes.push(invalid(at, items!.length, 'must have at most 64 items'))
  return causes
}

function validateMatchResources(match: MatchResources, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (match.matchPolicy !== undefined && !['Equivalent', 'Exact'].includes(match.matchPolicy)) causes.push(notSupported(`${at}.matchPolicy`, match.matchPolicy, ['Equivalent', 'Exact']))
  causes.push(...validateMetaLabelSelector(match.namespaceSelector, `${at}.namespaceSelector`))
  causes.push(...validateMetaLabelSelector(match.objectSelector, `${at}.objectSelector`))
  for (const field of ['resourceRules', 'excludeResourceRules'] as const) {
    for (const [j, rule] of (match[field] ?? []).entries()) {
      causes.push(...validateRule(rule, `${at}.${field}[${j}]`))
      const names = rule.resourceNames ?? []
      if (names.length && (rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/'))) {
        causes.push(forbidden(`${at}.${field}[${j}].resourceNames`, "must not be specified with '*' resources"))
      }
    }
  }
  return causes
}

function validateBinding(binding: AdmissionPolicyBinding): FieldCause[] {
  const spec = binding.spec ?? {}
  const causes: FieldCause[] = []
  if (!spec.policyName) causes.push(required('spec.policyName'))
  if (spec.matchResources) causes.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'))
  const actions = spec.validationActions ?? []
  if (!actions.length) causes.push(required('spec.validationActions', 'at least one validation action is required'))
  const seen = new Set<string>()
  for (const [i, action] of actions.entries()) {
    if (!validationActions.includes(action)) causes.push(notSupported(`spec.validationActions[${i}]`, action, validationActions))
    if (seen.has(action)) causes.push(duplicate(`spec.validationActions[${i}]`, action))
    seen.add(action)
  }
  if (seen.has('Deny') && seen.has('Warn')) causes.push(invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'))
  const ref = spec.paramRef
  if (ref) {
    if (ref.name && ref.selector) causes.push(forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'))
    if (!ref.name && !ref.selector) causes.push(required('spec.paramRef', 'one of name or selector must be specified'))
    if (ref.selector) causes.push(...validateMetaLabelSelector(ref.selector, 'spec.paramRef.selector'))
    if (ref.parameterNotFoundAction !== undefined && !['Allow', 'Deny'].includes(ref.parameterNotFoundAction)) {
      causes.push(notSupported('spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, ['Allow', 'Deny']))
    }
  }
  return causes
}
