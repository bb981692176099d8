/**
 * The CEL environment admission policies are written in (k8s.io/apiserver/pkg/admission/plugin/cel):
 * the variables `object`, `oldObject`, `request`, `namespaceObject`, `variables` and (with a
 * paramKind) `params`, all dynamically typed, with CEL's standard library, its macros, optional types and the most used parts
 * of Kubernetes' libraries (`cel-library.ts`). Objects enter CEL
 * as their JSON: whole numbers as CEL ints, others as doubles. `matches` uses RE2
 * (`cel-regex.ts`) and evaluation is bounded by cel-go's cost limits (`cel-cost.ts`).
 */
import { Environment, type ParseResult } from '@marcbachmann/cel-js'
import { registerKubernetesLibrary } from './cel-library'
import { costExceeded, meterNodes, newCostBudget, withinCost, type CostBudget } from './cel-cost'
import { registerRegexMatches, spokenMatches, useRe2Matches } from './cel-regex'

/** The variables every policy expression may name; `params` only where the policy has a paramKind. */
const declared = ['object', 'oldObject', 'request', 'namespaceObject', 'variables'] as const

const environments = new Map<boolean, Environment>()

function celEnvironment(hasParams: boolean): Environment {
  let env = environments.get(hasParams)
  if (env) return env
  env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false, limits: { maxAstNodes: 10_000, maxDepth: 100 } })
  for (const name of declared) env.registerVariable(name, 'dyn')
  if (hasParams) env.registerVariable('params', 'dyn')
  registerKubernetesLibrary(env)
  registerRegexMatches(env)
  environments.set(hasParams, env)
  return env
}

/** What an expression must evaluate to: validations and match conditions a bool, messages a string. */
export type ExpressionResult = 'bool' | 'string' | 'any'

export type Compiled = { ok: true; program: ParseResult } | { ok: false; error: string }

const summaryOf = (err: unknown) => spokenMatches(String((err as { summary?: string }).summary ?? (err as Error).message ?? err))

/**
 * Parses and type-checks an expression, as upstream compiles one on create: `compilation failed:
 * ERROR: <input>: …`. `authorizer` is not declared here, so an expression that names it fails to
 * compile with a message saying so.
 */
export function compileExpression(expression: string, result: ExpressionResult, hasParams: boolean): Compiled {
  const env = celEnvironment(hasParams)
  let program: ParseResult
  try {
    program = env.parse(expression)
  } catch (err) {
    return { ok: false, error: `compilation failed: ERROR: <input>: ${summaryOf(err)}` }
  }
  const refusedPattern = useRe2Matches(program.ast)
  if (refusedPattern) return { ok: false, error: `compilation failed: ERROR: <input>: ${refusedPattern}` }
  const checked = program.check()
  if (!checked.valid) {
    const why = summaryOf(checked.error)
    const authorizer = /\bauthorizer\b/.test(expression) ? ' (the authorizer variable is not supported by this server)' : ''
    return { ok: false, error: `compilation failed: ERROR: <input>: ${why}${authorizer}` }
  }
  if (result !== 'any' && checked.type !== result && checked.type !== 'dyn') {
    return { ok: false, error: `compilation failed: ERROR: <input>: expression must evaluate to ${result}, not ${checked.type}` }
  }
  meterNodes(program.ast)
  return { ok: true, program }
}

/** A JSON value as CEL sees it: whole numbers become ints (bigint), every other value keeps its type. */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value
  if (Array.isArray(value)) return value.map(toCel)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v)
    return out
  }
  return value
}

/**
 * Runs a compiled expression, spending from `budget` (a fresh one unless the expression is one of
 * a policy's); an evaluation error, running out of cost included, comes back as upstream words it.
 */
export function evaluateExpression(program: ParseResult, expression: string, context: Record<string, unknown>, budget: CostBudget = newCostBudget()): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: withinCost(budget, () => program(context)) }
  } catch (err) {
    if ((err as Error).message === costExceeded) return { ok: false, error: `expression '${expression}' resulted in error: ${costExceeded}` }
    // cel-go words its errors in lower case (`no such key: x`); so do these.
    const why = summaryOf(err)
    return { ok: false, error: `expression '${expression}' resulted in error: ${why.charAt(0).toLowerCase()}${why.slice(1)}` }
  }
}
