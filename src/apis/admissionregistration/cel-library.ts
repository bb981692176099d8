/**
 * The parts of Kubernetes' CEL libraries (k8s.io/apiserver/pkg/cel/library, cel-go's strings
 * extension) that admission policies most use and CEL's standard library lacks: the regex
 * functions `find` and `findAll` (RE2, linear-time, as Go's regexp), the strings functions
 * `charAt`, `replace` and `reverse`, and the lists functions `sum`, `min`, `max`, `isSorted`,
 * `indexOf` and `lastIndexOf`.
 */
import type { Environment } from '@marcbachmann/cel-js'
import { compilePattern } from '../crd/pattern'

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

type Ordered = bigint | number | string

const less = (a: Ordered, b: Ordered) => a < b
function extreme(list: Ordered[], better: (a: Ordered, b: Ordered) => boolean, name: string): Ordered {
  if (!list.length) throw new Error(`${name}(list) argument must not be empty`)
  return list.reduce((a, b) => (better(b, a) ? b : a))
}

const position = (i: number) => BigInt(i)
const equal = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a, bigints) === JSON.stringify(b, bigints))
function bigints(_key: string, value: unknown) {
  return typeof value === 'bigint' ? `${value}n` : value
}

export function registerKubernetesLibrary(env: Environment): void {
  env.registerFunction('string.find(string): string', (s: string, p: string) => findAll(s, p, 1)[0] ?? '')
  env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1))
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, Number(n)))
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s]
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`)
    return chars[Number(i)] ?? ''
  })
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to))
  env.registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return s.split(from).join(to)
    const parts = s.split(from)
    return parts.slice(0, Number(n) + 1).join(to) + (parts.length > Number(n) + 1 ? from + parts.slice(Number(n) + 1).join(from) : '')
  })
  env.registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))

  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n))
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0))
  for (const t of ['int', 'double', 'string'] as const) {
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: Ordered[]) => extreme(l, less, 'min'))
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: Ordered[]) => extreme(l, (a, b) => b < a, 'max'))
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: Ordered[]) => l.every((v, i) => i === 0 || !less(v, l[i - 1]!)))
  }
  env.registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], v: unknown) => position(l.findIndex((x) => equal(x, v))))
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (equal(l[i], v)) return position(i)
    return -1n
  })
}
