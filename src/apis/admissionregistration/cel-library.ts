/**
 * Kubernetes' CEL libraries (k8s.io/apiserver/pkg/cel/library, and the cel-go extensions it
 * enables) as 1.32 offers them to new expressions, registered on one environment: the strings
 * extension's `charAt`, `replace` and `reverse`, the regex functions `find` and `findAll` (RE2,
 * linear-time, as Go's regexp), and the libraries of their own files: sets and lists, IP and CIDR,
 * quantity, URL, format and (where an `authorizer` is declared) authz.
 */
import type { Environment } from '@marcbachmann/cel-js'
import { compilePattern } from '../crd/pattern'
import { registerSetsAndLists } from './cel-sets-lists'
import { registerNetLibrary } from './cel-net'
import { registerQuantityLibrary } from './cel-quantity'
import { registerURLLibrary } from './cel-url'
import { registerFormatLibrary } from './cel-format'

/** A pattern compiled with RE2; one it refuses is an evaluation error, as in cel-go. */
export function regex(pattern: string) {
  const re = compilePattern(pattern)
  if (re instanceof Error) throw new Error(`regex compilation failed: ${re.message}`)
  return re
}

function findAll(s: string, pattern: string, limit: number): string[] {
  const matcher = regex(pattern).matcher(s)
  const found: string[] = []
  while ((limit < 0 || found.length < limit) && matcher.find()) found.push(matcher.group() ?? '')
  return found
}

function registerStringsAndRegex(env: Environment): void {
  env.registerFunction(
    'string.find(string): string',
    (s: string, p: string) => findAll(s, p, 1)[0] ?? '',
  )
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
    findAll(s, p, -1),
  )
  env.registerFunction(
    'string.findAll(string, int): list<string>',
    (s: string, p: string, n: bigint) => findAll(s, p, Number(n)),
  )
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s]
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`)
    return chars[Number(i)] ?? ''
  })
  env.registerFunction(
    'string.replace(string, string): string',
    (s: string, from: string, to: string) => s.split(from).join(to),
  )
  env.registerFunction(
    'string.replace(string, string, int): string',
    (s: string, from: string, to: string, n: bigint) => {
      if (n < 0n) return s.split(from).join(to)
      const parts = s.split(from)
      return (
        parts.slice(0, Number(n) + 1).join(to) +
        (parts.length > Number(n) + 1 ? from + parts.slice(Number(n) + 1).join(from) : '')
      )
    },
  )
  env.registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))
}

/** Every library but authz, which needs the `authorizer` variable (see cel-authz.ts). */
export function registerKubernetesLibrary(env: Environment): void {
  registerStringsAndRegex(env)
  registerSetsAndLists(env)
  registerNetLibrary(env)
  registerQuantityLibrary(env)
  registerURLLibrary(env)
  registerFormatLibrary(env)
}
