/**
 * A CRD schema's `x-kubernetes-validations` rules (k8s.io/apiextensions-apiserver's schema/cel):
 * checked when the CRD is written, as upstream validates them (a rule that is empty, does not
 * compile, or is not a bool; messages, messageExpressions, reasons and field paths; `oldSelf` only
 * where old values correlate), and compiled once per schema for the custom resources' writes
 * (`cel-rule-eval.ts`). Rules see `self` (and `oldSelf` in transition rules), dynamically typed,
 * with Kubernetes' CEL libraries but no authorizer.
 */
import type { ParseResult } from '@marcbachmann/cel-js'
import { invalid, notSupported, required, type FieldCause } from '../../apimachinery/field-errors'
import { compileExpression, crdScope, namesVariable } from '../admissionregistration/cel'
import type { JSONSchemaProps, ValidationRule } from './schema'

export interface CompiledRule {
  rule: ValidationRule
  program?: ParseResult
  /** why the rule does not compile */
  error?: string
  messageProgram?: ParseResult
  messageError?: string
  /** a transition rule: it names oldSelf */
  usesOldSelf: boolean
}

const reasons = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
]

const isSchema = (v: unknown): v is JSONSchemaProps =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function compileTyped(
  text: string,
  want: 'bool' | 'string',
): { program?: ParseResult; error?: string } {
  const compiled = compileExpression(text, 'any', crdScope)
  if (!compiled.ok) return { error: compiled.error }
  const type = compiled.program.check().type
  if (type !== want && type !== 'dyn')
    return {
      error:
        want === 'bool'
          ? 'cel expression must evaluate to a bool'
          : 'messageExpression must evaluate to a string',
    }
  return { program: compiled.program }
}

function compileRule(rule: ValidationRule): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false }
  const text = (rule.rule ?? '').trim()
  if (text) {
    const { program, error } = compileTyped(text, 'bool')
    if (program) {
      out.program = program
      out.usesOldSelf = namesVariable(program, 'oldSelf')
    } else out.error = error
  }
  if (rule.messageExpression?.trim()) {
    const { program, error } = compileTyped(rule.messageExpression, 'string')
    if (program) out.messageProgram = program
    else
      out.messageError = error?.startsWith('compilation failed: ')
        ? `messageExpression ${error}`
        : error
  }
  return out
}

const compiledBySchema = new WeakMap<JSONSchemaProps, CompiledRule[]>()

/** The schema node's own rules, compiled once. */
export function compiledRules(s: JSONSchemaProps): CompiledRule[] {
  let rules = compiledBySchema.get(s)
  if (!rules) {
    rules = (s['x-kubernetes-validations'] ?? []).map(compileRule)
    compiledBySchema.set(s, rules)
  }
  return rules
}

const withRules = new WeakMap<JSONSchemaProps, boolean>()

/** Whether any node of the schema has rules (remembered per schema: a write asks each time). */
export function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!isSchema(s)) return false
  let has = withRules.get(s)
  if (has === undefined) {
    has =
      !!s['x-kubernetes-validations']?.length ||
      Object.values(s.properties ?? {}).some(hasRules) ||
      hasRules(s.items) ||
      (isSchema(s.additionalProperties) && hasRules(s.additionalProperties))
    withRules.set(s, has)
  }
  return has
}

/** apiextensions.ValidationRule as Go's %#v prints it in a field error. */
function goRule(r: ValidationRule): string {
  const str = (v: string | undefined) => JSON.stringify(v ?? '')
  const reason =
    r.reason === undefined
      ? '(*apiextensions.FieldValueErrorReason)(nil)'
      : `(*apiextensions.FieldValueErrorReason)(${JSON.stringify(r.reason)})`
  const optional =
    r.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${r.optionalOldSelf})`
  return `apiextensions.ValidationRule{Rule:${str(r.rule)}, Message:${str(r.message)}, MessageExpression:${str(r.messageExpression)}, Reason:${reason}, FieldPath:${str(r.fieldPath)}, OptionalOldSelf:${optional}}`
}

/**
 * The causes of a CRD version's schema whose rules upstream refuses. `uncorrelatable` is the path
 * of the nearest list above whose items have no identity across updates (only `map` lists do).
 */
export function validateValidationRules(
  s: JSONSchemaProps,
  path: string,
  uncorrelatable?: string,
): FieldCause[] {
  if (!isSchema(s)) return []
  const causes: FieldCause[] = []
  const schemaCauses: FieldCause[] = []
  for (const [i, rule] of (s['x-kubernetes-validations'] ?? []).entries()) {
    const at = `${path}.x-kubernetes-validations[${i}]`
    const text = (rule.rule ?? '').trim()
    const message = (rule.message ?? '').trim()
    if (!text) schemaCauses.push(required(`${at}.rule`, 'rule is not specified'))
    else if (rule.message && !message)
      schemaCauses.push(
        invalid(`${at}.message`, rule.message, 'message must be non-empty if specified'),
      )
    else if (message.includes('\n'))
      schemaCauses.push(
        invalid(`${at}.message`, rule.message, 'message must not contain line breaks'),
      )
    else if (text.includes('\n') && !message)
      schemaCauses.push(
        required(`${at}.message`, 'message must be specified if rule contains line breaks'),
      )
    if (rule.messageExpression && !rule.messageExpression.trim())
      schemaCauses.push(
        required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'),
      )
    if (rule.reason !== undefined && !reasons.includes(rule.reason))
      schemaCauses.push(notSupported(`${at}.reason`, rule.reason, reasons))
    if (rule.fieldPath !== undefined && rule.fieldPath.length && !rule.fieldPath.trim())
      schemaCauses.push(
        invalid(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must be non-empty if specified'),
      )
    if (rule.fieldPath?.includes('\n'))
      schemaCauses.push(
        invalid(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must not contain line breaks'),
      )
    else if (rule.fieldPath?.trim() && !fieldPathOf(s, rule.fieldPath))
      schemaCauses.push(
        invalid(`${at}.fieldPath`, rule.fieldPath, 'fieldPath must be a valid path'),
      )
  }
  causes.push(...schemaCauses)
  if (!schemaCauses.length) {
    for (const [i, c] of compiledRules(s).entries()) {
      const at = `${path}.x-kubernetes-validations[${i}]`
      if (c.error) causes.push(invalid(`${at}.rule`, c.rule, c.error, goRule(c.rule)))
      if (c.messageError)
        causes.push(invalid(`${at}.messageExpression`, c.rule, c.messageError, goRule(c.rule)))
      if (c.usesOldSelf && uncorrelatable !== undefined)
        causes.push(
          invalid(
            `${at}.rule`,
            c.rule.rule,
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
          ),
        )
      if (c.program && !c.usesOldSelf && c.rule.optionalOldSelf !== undefined)
        causes.push(
          invalid(
            `${at}.optionalOldSelf`,
            c.rule.optionalOldSelf,
            'may not be set if oldSelf is not used in rule',
          ),
        )
    }
  }
  for (const [k, v] of Object.entries(s.properties ?? {}))
    causes.push(...validateValidationRules(v, `${path}.properties[${k}]`, uncorrelatable))
  if (isSchema(s.additionalProperties))
    causes.push(
      ...validateValidationRules(
        s.additionalProperties,
        `${path}.additionalProperties`,
        uncorrelatable,
      ),
    )
  if (isSchema(s.items))
    causes.push(
      ...validateValidationRules(
        s.items,
        `${path}.items`,
        uncorrelatable ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : path),
      ),
    )
  return causes
}

/**
 * A rule's `fieldPath` (`.spec.replicas`, `['a.b']`) resolved against its schema: the field path
 * of the value it names, or undefined when it names no declared field.
 */
export function fieldPathOf(s: JSONSchemaProps, fieldPath: string): string | undefined {
  const steps: string[] = []
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\['((?:[^'\\]|\\.)*)'\]/y
  const text = fieldPath.trim()
  let node: JSONSchemaProps | undefined = s
  for (re.lastIndex = 0; re.lastIndex < text.length; ) {
    const m = re.exec(text)
    if (!m || !node) return undefined
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, '$1')
    node =
      node.properties?.[name] ??
      (isSchema(node.additionalProperties) ? node.additionalProperties : undefined)
    if (!node) return undefined
    steps.push(name)
  }
  return steps.length ? steps.join('.') : undefined
}
