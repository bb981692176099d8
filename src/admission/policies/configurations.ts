/**
 * The ValidatingAdmissionPolicies this isolate admits with, each compiled once and paired with the
 * bindings that name it, kept as the webhook configurations are (`stored-snapshot.ts`): re-read at
 * most once every `webhookRecheckMs`, and at once after a write to either kind through this isolate.
 */
import type { AdmissionBindings } from '../bindings'
import type { ParseResult } from '@marcbachmann/cel-js'
import { findResource } from '../../apis/registry'
import { admissionGroup } from '../../apis/resource-table/extensions'
import type {
  AdmissionPolicy,
  AdmissionPolicyBinding,
  PolicyValidation,
} from '../../apis/admissionregistration/admission-policy'
import {
  compileExpression,
  namesAuthorizer,
  policyScope,
  type ExpressionResult,
} from '../../apis/admissionregistration/cel'
import { webhookRecheckMs } from '../../config'
import { storedSnapshot } from '../stored-snapshot'

export interface CompiledExpression {
  name: string
  expression: string
  program: ParseResult
}

export interface CompiledValidation extends PolicyValidation {
  program: ParseResult
  messageProgram?: ParseResult
}

export interface ConfiguredPolicy {
  policy: AdmissionPolicy
  name: string
  failurePolicy: 'Fail' | 'Ignore'
  /** why an expression of the policy does not compile: every request it matches meets its failurePolicy */
  compileError?: string
  validations: CompiledValidation[]
  variables: CompiledExpression[]
  matchConditions: CompiledExpression[]
  /** whether an expression names `authorizer`, so its evaluation needs the cluster's authorizer */
  usesAuthorizer: boolean
  /** its bindings, by name */
  bindings: AdmissionPolicyBinding[]
}

const defs = [
  findResource(admissionGroup, 'v1', 'validatingadmissionpolicies')!,
  findResource(admissionGroup, 'v1', 'validatingadmissionpolicybindings')!,
]

const byName = (a: { metadata: { name?: string } }, b: { metadata: { name?: string } }) =>
  (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')

const configured = storedSnapshot(defs, webhookRecheckMs, ([policyTexts, bindingTexts]) => {
  const bindings = bindingTexts!.map((t) => JSON.parse(t) as AdmissionPolicyBinding).sort(byName)
  const policies = policyTexts!.map((t) => JSON.parse(t) as AdmissionPolicy).sort(byName)
  return policies
    .map((policy) =>
      compilePolicy(
        policy,
        bindings.filter((b) => b.spec?.policyName === policy.metadata.name),
      ),
    )
    .filter((p) => p.bindings.length)
})

/** Every policy that has at least one binding, by name. */
export function configuredPolicies(env: AdmissionBindings): Promise<ConfiguredPolicy[]> {
  return configured.get(env)
}

/** Makes the next request re-read the policies: called after a write to either kind. */
export function forgetAdmissionPolicies(): void {
  configured.forget()
}

export function compilePolicy(
  policy: AdmissionPolicy,
  bindings: AdmissionPolicyBinding[],
): ConfiguredPolicy {
  const spec = policy.spec ?? {}
  const errors: string[] = []
  let usesAuthorizer = false
  const compile = (
    expression: string,
    result: ExpressionResult,
    authorizer = true,
  ): ParseResult | undefined => {
    const compiled = compileExpression(
      expression ?? '',
      result,
      policyScope(!!spec.paramKind, authorizer),
    )
    if (compiled.ok) {
      usesAuthorizer ||= namesAuthorizer(compiled.program)
      return compiled.program
    }
    errors.push(compiled.error)
    return undefined
  }
  const named = (
    items: { name: string; expression: string }[] | undefined,
    result: ExpressionResult,
  ): CompiledExpression[] =>
    (items ?? []).flatMap((item) => {
      const program = compile(item.expression, result)
      return program ? [{ name: item.name, expression: item.expression, program }] : []
    })
  const variables = named(spec.variables, 'any')
  const matchConditions = named(spec.matchConditions, 'bool')
  const validations = (spec.validations ?? []).flatMap((v): CompiledValidation[] => {
    const program = compile(v.expression, 'bool')
    const messageProgram =
      v.messageExpression !== undefined ? compile(v.messageExpression, 'string', false) : undefined
    return program ? [{ ...v, program, ...(messageProgram ? { messageProgram } : {}) }] : []
  })
  return {
    policy,
    name: policy.metadata.name ?? '',
    failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    ...(errors.length ? { compileError: errors.join('; ') } : {}),
    validations,
    variables,
    matchConditions,
    usesAuthorizer,
    bindings,
  }
}
