/**
 * `matchConditions`, of ValidatingAdmissionPolicies and admission webhooks alike
 * (validateMatchConditions in k8s.io/kubernetes/pkg/apis/admissionregistration/validation): at most
 * 64, each with a qualified name unique among them and an expression that compiles to a bool in
 * the scope of its kind.
 */
import { duplicate, invalid, required, type FieldCause } from '../../apimachinery/field-errors'
import { validateQualifiedName } from '../../apimachinery/field-formats'
import { compileExpression, type CelScope } from './cel'

export interface MatchCondition {
  name: string
  expression: string
}

export const maxMatchConditions = 64

export function validateMatchConditions(
  conditions: MatchCondition[] | undefined,
  at: string,
  scope: CelScope,
): FieldCause[] {
  const causes: FieldCause[] = []
  const items = conditions ?? []
  if (items.length > maxMatchConditions)
    causes.push({
      field: at,
      reason: 'FieldValueTooMany',
      message: `must have at most ${maxMatchConditions} items`,
      value: items.length,
    })
  const seen = new Set<string>()
  for (const [i, c] of items.entries()) {
    const expression = (c?.expression ?? '').trim()
    if (!expression) causes.push(required(`${at}[${i}].expression`))
    else {
      const compiled = compileExpression(expression, 'bool', scope)
      if (!compiled.ok) causes.push(invalid(`${at}[${i}].expression`, expression, compiled.error))
    }
    if (!c?.name) causes.push(required(`${at}[${i}].name`))
    else {
      causes.push(...validateQualifiedName(c.name, `${at}[${i}].name`))
      if (seen.has(c.name)) causes.push(duplicate(`${at}[${i}].name`, c.name))
      seen.add(c.name)
    }
  }
  return causes
}
