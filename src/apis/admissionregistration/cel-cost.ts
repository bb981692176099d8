/**
 * A cost limit on evaluation, as cel-go's: every node evaluated (each step of a comprehension
 * counts again) costs 1, a concatenation or function call that makes a string or list costs a
 * tenth of its length more (as cel-go prices string and list work by size), and an expression may spend at most `perCallLimit`
 * (celconfig.PerCallLimit) and the expressions of one policy evaluation together at most
 * `runtimeCostBudget` (celconfig.RuntimeCELCostBudget). Past either, evaluation stops with cel-go's
 * `operation cancelled: actual cost limit exceeded`, whatever operator would otherwise absorb the
 * error. Evaluation is synchronous, so the meter of the expression running is module state.
 */
import { walkNodes, type Evaluate } from './cel-ast'

export const perCallLimit = 1_000_000
export const runtimeCostBudget = 10_000_000

export const costExceeded = 'operation cancelled: actual cost limit exceeded'

/** What a policy evaluation may still spend. */
export interface CostBudget {
  remaining: number
}

/** upstream's budget for one webhook's match conditions (celconfig.RuntimeCELCostBudgetMatchConditions) */
export const matchConditionsCostBudget = 2_500_000

export const newCostBudget = (total = runtimeCostBudget): CostBudget => ({ remaining: total })

interface Meter {
  left: number
  budget: CostBudget
  exceeded: boolean
}

let running: Meter | undefined

function spend(cost: number): void {
  const m = running
  if (!m) return
  if (m.exceeded || (m.left -= cost) < 0 || (m.budget.remaining -= cost) < 0) {
    m.exceeded = true
    throw new Error(costExceeded)
  }
}

/** A library function's own price beyond its node's (an authorization check's, say). */
export function chargeCost(cost: number): void {
  spend(cost)
}

const metered = new WeakSet<Evaluate>()
function meter(evaluate: Evaluate, sized: boolean): Evaluate {
  if (metered.has(evaluate)) return evaluate
  const counted: Evaluate = (ev, ast, ctx) => {
    spend(1)
    const value = evaluate(ev, ast, ctx)
    if (sized && (typeof value === 'string' || Array.isArray(value)) && value.length >= 10)
      spend(Math.ceil(value.length / 10))
    return value
  }
  metered.add(counted)
  return counted
}

/** the nodes whose cost grows with what they make */
const sizedOps = new Set(['+', 'call', 'rcall'])

/** Makes every node of a checked expression spend from the running meter. */
export function meterNodes(ast: unknown): void {
  walkNodes(ast, (node) => {
    const meta = node.meta
    if (meta.alternate) return
    if (meta.macro) meta.macro.evaluate = meter(meta.macro.evaluate, false)
    else if (meta.evaluate) meta.evaluate = meter(meta.evaluate, sizedOps.has(node.op))
  })
}

/** Runs `run` under a meter; throws `costExceeded` if it overspent, even where CEL swallowed the error. */
export function withinCost<T>(budget: CostBudget, run: () => T): T {
  const outer = running
  const m: Meter = { left: perCallLimit, budget, exceeded: budget.remaining < 0 }
  running = m
  try {
    const value = run()
    if (m.exceeded) throw new Error(costExceeded)
    return value
  } catch (err) {
    throw m.exceeded ? new Error(costExceeded) : err
  } finally {
    running = outer
  }
}
