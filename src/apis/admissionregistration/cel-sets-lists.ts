/**
 * cel-go's sets extension and Kubernetes' lists library (k8s.io/apiserver/pkg/cel/library/lists.go)
 * as 1.32 enables them: `sets.contains(a, b)` (every element of b is in a), `sets.equivalent(a, b)`
 * (the same elements, duplicates aside) and `sets.intersects(a, b)`; the list methods `sum`, `min`,
 * `max`, `isSorted`, `indexOf` and `lastIndexOf`. Elements compare with CEL's equality, numbers
 * across int, uint and double.
 */
import type { Environment } from '@marcbachmann/cel-js'

/** A CEL number as JavaScript holds it: an int (bigint), a double, or a uint (an object of a bigint). */
function numberOf(v: unknown): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const inner = v.valueOf()
    if (typeof inner === 'bigint') return inner
  }
  return undefined
}

/** CEL's `==` on values: numbers by value whatever their type, lists and maps element by element. */
export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  const na = numberOf(a)
  const nb = numberOf(b)
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na == nb
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => celEqual(v, b[i]))
    )
  if (a instanceof Uint8Array || b instanceof Uint8Array)
    return (
      a instanceof Uint8Array &&
      b instanceof Uint8Array &&
      a.length === b.length &&
      a.every((v, i) => v === b[i])
    )
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  )
}

const includes = (list: unknown[], v: unknown) => list.some((x) => celEqual(x, v))
const contains = (a: unknown[], b: unknown[]) => b.every((v) => includes(a, v))

type Ordered = bigint | number | string | boolean

const before = (a: Ordered, b: Ordered) => a < b

function extreme(
  list: Ordered[],
  better: (a: Ordered, b: Ordered) => boolean,
  name: string,
): Ordered {
  if (!list.length) throw new Error(`${name} called on empty list`)
  return list.reduce((a, b) => (better(b, a) ? b : a))
}

/** `sets`, whose methods are the sets functions. */
class SetsNamespace {}

const S = 'kubernetes.SetsNamespace'

export function registerSetsAndLists(env: Environment): void {
  env.registerType(S, SetsNamespace)
  env.registerConstant('sets', S, new SetsNamespace())
  env.registerFunction(
    `${S}.contains(list, list): bool`,
    (_s: SetsNamespace, a: unknown[], b: unknown[]) => contains(a, b),
  )
  env.registerFunction(
    `${S}.equivalent(list, list): bool`,
    (_s: SetsNamespace, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a),
  )
  env.registerFunction(
    `${S}.intersects(list, list): bool`,
    (_s: SetsNamespace, a: unknown[], b: unknown[]) => a.some((v) => includes(b, v)),
  )

  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n))
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0))
  for (const t of ['int', 'double', 'string', 'bool'] as const) {
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: Ordered[]) => extreme(l, before, 'min'))
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: Ordered[]) =>
      extreme(l, (a, b) => before(b, a), 'max'),
    )
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: Ordered[]) =>
      l.every((v, i) => i === 0 || !before(v, l[i - 1]!)),
    )
  }
  env.registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], v: unknown) =>
    BigInt(l.findIndex((x) => celEqual(x, v))),
  )
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (celEqual(l[i], v)) return BigInt(i)
    return -1n
  })
}
