/**
 * One policy evaluated for one request and one param (k8s.io/apiserver's validating validator):
 * the match conditions first (any false: the policy does not apply; else an error meets the
 * failurePolicy), then every validation, with `variables` computed when first named. A validation
 * that is not true denies with its messageExpression's result, its message, or `failed expression:
 * <expression>`; one that errors denies or admits as the failurePolicy says. All of them spend
 * from one cost budget (celconfig.RuntimeCELCostBudget); once it is spent no further expression runs.
 */
import { evaluateExpression } from '../../apis/admissionregistration/cel'
import { newCostBudget, type CostBudget } from '../../apis/admissionregistration/cel-cost'
import type { CompiledExpression, ConfiguredPolicy } from './configurations'

export interface Decision {
  deny: boolean
  message: string
  /** the HTTP reason of a denying validation; unset for errors */
  reason?: string
}

/** upstream's words when a policy's expressions together overspend */
const budgetSpent =
  'validation failed due to running out of cost budget, no further validation rules will be run'

/** upstream's cap on a messageExpression's result (celconfig.MaxEvaluatedMessageExpressionSizeBytes) */
const maxMessageBytes = 5 * 1024

/** The decisions of the validations that failed (or errored under failurePolicy Fail); none when all passed. */
export function evaluatePolicy(p: ConfiguredPolicy, input: Record<string, unknown>): Decision[] {
  const onError = (message: string): Decision[] =>
    p.failurePolicy === 'Ignore' ? [] : [{ deny: true, message }]
  if (p.compileError) return onError(p.compileError)
  const budget = newCostBudget()
  const context: Record<string, unknown> = {
    ...input,
    variables: lazyVariables(p.variables, input, budget),
  }
  // A condition that is false wins over one that errors, as upstream's matcher decides.
  const conditionErrors: string[] = []
  for (const condition of p.matchConditions) {
    const result = evaluateExpression(condition.program, condition.expression, context, budget)
    if (budget.remaining < 0) return onError(budgetSpent)
    if (!result.ok) conditionErrors.push(result.error)
    else if (result.value === false) return []
  }
  if (conditionErrors.length)
    return onError(
      conditionErrors.length === 1 ? conditionErrors[0]! : `[${conditionErrors.join(', ')}]`,
    )
  const decisions: Decision[] = []
  for (const v of p.validations) {
    const result = evaluateExpression(v.program, v.expression, context, budget)
    if (budget.remaining < 0) return [...decisions, ...onError(budgetSpent)]
    if (!result.ok) {
      decisions.push(...onError(result.error))
      continue
    }
    if (result.value === true) continue
    decisions.push({
      deny: true,
      reason: v.reason ?? 'Invalid',
      message: failureMessage(v, context, budget),
    })
  }
  return decisions
}

function failureMessage(
  v: ConfiguredPolicy['validations'][number],
  context: Record<string, unknown>,
  budget: CostBudget,
): string {
  if (v.messageProgram) {
    const result = evaluateExpression(v.messageProgram, v.messageExpression ?? '', context, budget)
    const text = result.ok && typeof result.value === 'string' ? result.value.trim() : ''
    if (text && text.length <= maxMessageBytes && !text.includes('\n')) return text
  }
  if (v.message?.trim()) return v.message.trim()
  return `failed expression: ${v.expression.trim()}`
}

/**
 * `variables.<name>`: each computed once, when an expression first names it, with the variables
 * before it in scope; one that errors makes every expression naming it error.
 */
function lazyVariables(
  variables: CompiledExpression[],
  input: Record<string, unknown>,
  budget: CostBudget,
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  const context = { ...input, variables: values }
  for (const v of variables) {
    let done: { ok: true; value: unknown } | { ok: false; error: string } | undefined
    Object.defineProperty(values, v.name, {
      enumerable: true,
      get() {
        done ??= evaluateExpression(v.program, v.expression, context, budget)
        if (!done.ok) throw new Error(done.error)
        return done.value
      },
    })
  }
  return values
}
