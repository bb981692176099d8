/**
 * The CEL environments admission expressions are written in (k8s.io/apiserver/pkg/admission/plugin/cel):
 * the variables `object`, `oldObject`, `request` and `namespaceObject`, all dynamically typed,
 * then as the scope says `variables` and `params` (a policy's) and `authorizer` (with
 * `authorizer.requestResource`), with CEL's standard library, its macros, optional types and
 * Kubernetes' libraries as 1.32 offers them (`cel-library.ts`, `cel-authz.ts`). Objects enter CEL
 * as their JSON: whole numbers as CEL ints, others as doubles. `matches` uses RE2
 * (`cel-regex.ts`) and evaluation is bounded by cel-go's cost limits (`cel-cost.ts`).
 */
import { Environment, EvaluationError, type ParseResult } from '@marcbachmann/cel-js'
import { registerKubernetesLibrary } from './cel-library'
import { registerAuthzLibrary } from './cel-authz'
import { costExceeded, meterNodes, newCostBudget, withinCost, type CostBudget } from './cel-cost'
import { registerRegexMatches, spokenMatches, useRe2Matches } from './cel-regex'
import { walkNodes } from './cel-ast'

/**
 * Which variables an expression may name: object, oldObject, request and namespaceObject, and
 * beyond them the ones set here; a CRD's rule names only `self` and `oldSelf`.
 */
export interface CelScope {
  /** a CRD's `x-kubernetes-validations` rule: `self` and `oldSelf` instead of the admission variables */
  crd?: boolean
  /** a policy's `variables` */
  variables?: boolean
  /** a policy with a paramKind's `params` */
  params?: boolean
  /** `authorizer` and `authorizer.requestResource` (not in a messageExpression, as upstream) */
  authorizer?: boolean
}

/** A policy's expressions; `messageExpression`s have no authorizer. */
export const policyScope = (params: boolean, authorizer = true): CelScope => ({
  variables: true,
  params,
  authorizer,
})

/** A webhook's match conditions: no variables, no params. */
export const webhookScope: CelScope = { authorizer: true }

/** A CRD's validation rules and their messageExpressions. */
export const crdScope: CelScope = { crd: true }

const environments = new Map<string, Environment>()

function celEnvironment(scope: CelScope): Environment {
  const key = `${!!scope.crd}/${!!scope.variables}/${!!scope.params}/${!!scope.authorizer}`
  let env = environments.get(key)
  if (env) return env
  env = new Environment({
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: 10_000, maxDepth: 100 },
  })
  for (const name of scope.crd
    ? ['self', 'oldSelf']
    : ['object', 'oldObject', 'request', 'namespaceObject'])
    env.registerVariable(name, 'dyn')
  if (scope.variables) env.registerVariable('variables', 'dyn')
  if (scope.params) env.registerVariable('params', 'dyn')
  registerKubernetesLibrary(env)
  if (scope.authorizer) registerAuthzLibrary(env)
  registerRegexMatches(env)
  environments.set(key, env)
  return env
}

/** What an expression must evaluate to: validations and match conditions a bool, messages a string. */
export type ExpressionResult = 'bool' | 'string' | 'any'

export type Compiled = { ok: true; program: ParseResult } | { ok: false; error: string }

const summaryOf = (err: unknown) =>
  spokenMatches(String((err as { summary?: string }).summary ?? (err as Error).message ?? err))

/**
 * Parses and type-checks an expression, as upstream compiles one on create: `compilation failed:
 * ERROR: <input>: …`.
 */
export function compileExpression(
  expression: string,
  result: ExpressionResult,
  scope: CelScope,
): Compiled {
  const env = celEnvironment(scope)
  let program: ParseResult
  try {
    program = env.parse(expression)
  } catch (err) {
    return { ok: false, error: `compilation failed: ERROR: <input>: ${summaryOf(err)}` }
  }
  const refusedPattern = useRe2Matches(program.ast)
  if (refusedPattern)
    return { ok: false, error: `compilation failed: ERROR: <input>: ${refusedPattern}` }
  const checked = program.check()
  if (!checked.valid) {
    return { ok: false, error: `compilation failed: ERROR: <input>: ${summaryOf(checked.error)}` }
  }
  if (result !== 'any' && checked.type !== result && checked.type !== 'dyn') {
    return {
      ok: false,
      error: `compilation failed: ERROR: <input>: expression must evaluate to ${result}, not ${checked.type}`,
    }
  }
  meterNodes(program.ast)
  return { ok: true, program }
}

/** Whether a compiled expression names the `authorizer` variable (so its evaluation needs one). */
export function namesAuthorizer(program: ParseResult): boolean {
  return namesVariable(program, 'authorizer')
}

/** Whether a compiled expression names a variable (`oldSelf` makes a CRD rule a transition rule). */
export function namesVariable(program: ParseResult, name: string): boolean {
  let found = false
  walkNodes(program.ast, (node) => {
    if (node.op === 'id' && node.args === name) found = true
  })
  return found
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

/** An evaluation's value, or its error as cel-go words it (`no such key: x`), without the expression. */
export type Evaluated =
  | { ok: true; value: unknown }
  | { ok: false; error: string; costExceeded: boolean }

/** Runs a compiled expression, spending from `budget`. */
export function evaluateProgram(
  program: ParseResult,
  context: Record<string, unknown>,
  budget: CostBudget = newCostBudget(),
): Evaluated {
  try {
    return { ok: true, value: withinCost(budget, () => program(context)) }
  } catch (err) {
    if ((err as Error).message === costExceeded)
      return { ok: false, error: costExceeded, costExceeded: true }
    // cel-go words its own errors in lower case (`no such key: x`); so do cel-js's. A library
    // function's error is upstream's own text and is kept as it is.
    const why = summaryOf(err)
    return {
      ok: false,
      error: err instanceof EvaluationError ? `${why.charAt(0).toLowerCase()}${why.slice(1)}` : why,
      costExceeded: false,
    }
  }
}

/**
 * Runs a compiled expression, spending from `budget` (a fresh one unless the expression is one of
 * a policy's); an evaluation error, running out of cost included, comes back as upstream words it.
 */
export function evaluateExpression(
  program: ParseResult,
  expression: string,
  context: Record<string, unknown>,
  budget: CostBudget = newCostBudget(),
): { ok: true; value: unknown } | { ok: false; error: string } {
  const result = evaluateProgram(program, context, budget)
  return result.ok
    ? result
    : { ok: false, error: `expression '${expression}' resulted in error: ${result.error}` }
}
