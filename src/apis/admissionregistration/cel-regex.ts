/**
 * `matches` with RE2, as cel-go has it: linear-time, so no pattern (a param from a tenant's
 * ConfigMap, say) can make an evaluation backtrack for long. cel-js's own `string.matches` uses
 * the JavaScript engine's backtracking RegExp and cannot be replaced, so every call of `matches`
 * (the method `s.matches(p)` and the function `matches(s, p)`) is pointed at the RE2 overloads
 * registered here before the expression is checked. A literal pattern that RE2 refuses (a
 * lookaround, a backreference) fails compilation, as cel-go's regex validator does.
 */
import type { Environment } from '@marcbachmann/cel-js'
import { compilePattern } from '../crd/pattern'
import { walkNodes } from './cel-ast'
import { regex } from './cel-library'

/** the name the overloads are registered under; errors speak of `matches` */
export const re2Matches = 'matches_re2'

const matches = (s: string, pattern: string) => regex(pattern).matcher(s).find()

export function registerRegexMatches(env: Environment): void {
  env.registerFunction(`string.${re2Matches}(string): bool`, matches)
  env.registerFunction(`${re2Matches}(string, string): bool`, matches)
}

/**
 * Points the expression's `matches` calls at RE2; the error for the first literal pattern RE2
 * refuses, if any.
 */
export function useRe2Matches(ast: unknown): string | undefined {
  let refused: string | undefined
  walkNodes(ast, (node) => {
    if (node.op !== 'rcall' && node.op !== 'call') return
    const args = node.args as [string, ...unknown[]]
    if (args[0] !== 'matches') return
    args[0] = re2Matches
    const params = args[args.length - 1] as { op?: string; args?: unknown }[]
    const pattern = params[params.length - 1]
    if (refused === undefined && pattern?.op === 'value' && typeof pattern.args === 'string') {
      const re = compilePattern(pattern.args)
      if (re instanceof Error) refused = `invalid matches argument: ${re.message}`
    }
  })
  return refused
}

/** A cel-js message with the registered name read back as `matches`. */
export const spokenMatches = (message: string) => message.replaceAll(re2Matches, 'matches')
