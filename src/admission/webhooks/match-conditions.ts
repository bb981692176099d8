/**
 * A webhook's `matchConditions` (k8s.io/apiserver's webhook/matchconditions), evaluated after its
 * rules and selectors and before it is called: all true, it is called; any false, it is skipped
 * (a false one wins over one that errors); otherwise an error meets the webhook's failurePolicy,
 * `Fail` refusing the request (`<resource> "<name>" is forbidden: expression '…' resulted in
 * error: …`) and `Ignore` skipping the webhook. The conditions see `object`, `oldObject`,
 * `request`, `namespaceObject` (null, as upstream) and `authorizer`, and together may spend
 * celconfig.RuntimeCELCostBudgetMatchConditions.
 */
import type { AdmissionBindings } from '../bindings'
import type { Status } from '../../apimachinery/types'
import type { ParseResult } from '@marcbachmann/cel-js'
import type { Webhook } from '../../apis/admissionregistration/webhook-configuration'
import {
  compileExpression,
  evaluateExpression,
  namesAuthorizer,
  webhookScope,
} from '../../apis/admissionregistration/cel'
import { matchConditionsCostBudget, newCostBudget } from '../../apis/admissionregistration/cel-cost'
import { admissionForbidden } from '../forbidden'
import { admissionAuthorizer } from '../policies/authorizer'
import { celInput, type CelRequest } from '../policies/cel-input'

interface CompiledCondition {
  expression: string
  program?: ParseResult
  compileError?: string
}

interface CompiledConditions {
  conditions: CompiledCondition[]
  usesAuthorizer: boolean
}

const compiled = new WeakMap<Webhook, CompiledConditions>()

function compileConditions(hook: Webhook): CompiledConditions {
  let c = compiled.get(hook)
  if (c) return c
  let usesAuthorizer = false
  const conditions = (hook.matchConditions ?? []).map(({ expression }): CompiledCondition => {
    const text = (expression ?? '').trim()
    const result = compileExpression(text, 'bool', webhookScope)
    if (!result.ok)
      return {
        expression: text,
        compileError: `expression '${text}' resulted in error: ${result.error}`,
      }
    usesAuthorizer ||= namesAuthorizer(result.program)
    return { expression: text, program: result.program }
  })
  c = { conditions, usesAuthorizer }
  compiled.set(hook, c)
  return c
}

const budgetSpent =
  'validation failed due to running out of cost budget, no further validation rules will be run'

/** Whether to call the webhook, skip it, or refuse the request with a Status. */
export async function matchConditionsAllow(
  env: AdmissionBindings,
  hook: Webhook,
  r: CelRequest,
): Promise<'call' | 'skip' | Status> {
  if (!hook.matchConditions?.length) return 'call'
  const { conditions, usesAuthorizer } = compileConditions(hook)
  const input = celInput(
    { ...r, namespace: undefined },
    usesAuthorizer ? await admissionAuthorizer(env) : undefined,
  )
  const budget = newCostBudget(matchConditionsCostBudget)
  const errors: string[] = []
  for (const c of conditions) {
    if (!c.program) {
      errors.push(c.compileError ?? '')
      continue
    }
    const result = evaluateExpression(c.program, c.expression, input, budget)
    if (budget.remaining < 0) {
      errors.push(budgetSpent)
      break
    }
    if (!result.ok) errors.push(result.error)
    else if (result.value === false) return 'skip'
  }
  if (!errors.length) return 'call'
  if (hook.failurePolicy === 'Ignore') return 'skip'
  const why = errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`
  return admissionForbidden(
    { group: r.attributes.group, plural: r.attributes.resource },
    r.name,
    why,
  )
}
