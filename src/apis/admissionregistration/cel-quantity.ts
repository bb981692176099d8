/**
 * Kubernetes' quantity CEL library (k8s.io/apiserver/pkg/cel/library/quantity.go): `quantity(string)`,
 * `isQuantity`, `sign`, `isGreaterThan`, `isLessThan`, `compareTo`, `asApproximateFloat`,
 * `asInteger`, `isInteger`, `add` and `sub` (of a quantity or an int), and `==` by value
 * (`quantity("200M") == quantity("0.2G")`). Quantities are the project's exact ones
 * (`apimachinery/quantity.ts`), parsed with resource.ParseQuantity's errors.
 */
import type { Environment } from '@marcbachmann/cel-js'
import {
  addQuantity,
  cmpQuantity,
  parseQuantity,
  subQuantity,
  type Quantity,
} from '../../apimachinery/quantity'

export class CelQuantity {
  constructor(readonly q: Quantity) {}
}

const NANO = 1_000_000_000n
const MAX_INT64 = 2n ** 63n - 1n
const MIN_INT64 = -(2n ** 63n)

/** Quantity.AsInt64: the value when it is whole and fits an int64. */
function asInt64(q: Quantity): bigint | undefined {
  if (q.nanos % NANO !== 0n) return undefined
  const v = q.nanos / NANO
  return v > MAX_INT64 || v < MIN_INT64 ? undefined : v
}

/** resource.NewQuantity(n, DecimalExponent) */
const intQuantity = (n: bigint): Quantity => ({ nanos: n * NANO, format: 'DecimalExponent' })

const Q = 'kubernetes.Quantity'

const formatWrong =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

/** resource.ParseQuantity: a suffix of letters outside its alphabet is a format error before a suffix error. */
function parse(s: string): Quantity {
  const suffix = /^[+-]?[0-9]*(?:\.[0-9]*)?(.*)$/.exec(s)?.[1] ?? ''
  if (!/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) throw new Error(formatWrong)
  return parseQuantity(s)
}

export function registerQuantityLibrary(env: Environment): void {
  env.registerType(Q, CelQuantity)
  env.registerFunction(`quantity(string): ${Q}`, (s: string) => new CelQuantity(parse(s)))
  env.registerFunction('isQuantity(string): bool', (s: string) => {
    try {
      parse(s)
      return true
    } catch {
      return false
    }
  })
  env.registerFunction(`sign(${Q}): int`, (a: CelQuantity) =>
    BigInt(cmpQuantity(a.q, { nanos: 0n, format: 'DecimalSI' })),
  )
  env.registerFunction(
    `${Q}.isGreaterThan(${Q}): bool`,
    (a: CelQuantity, b: CelQuantity) => cmpQuantity(a.q, b.q) === 1,
  )
  env.registerFunction(
    `${Q}.isLessThan(${Q}): bool`,
    (a: CelQuantity, b: CelQuantity) => cmpQuantity(a.q, b.q) === -1,
  )
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: CelQuantity, b: CelQuantity) =>
    BigInt(cmpQuantity(a.q, b.q)),
  )
  env.registerFunction(
    `${Q}.asApproximateFloat(): double`,
    (a: CelQuantity) => Number(a.q.nanos) / 1e9,
  )
  env.registerFunction(`${Q}.asInteger(): int`, (a: CelQuantity) => {
    const v = asInt64(a.q)
    if (v === undefined) throw new Error('cannot convert value to integer')
    return v
  })
  env.registerFunction(`${Q}.isInteger(): bool`, (a: CelQuantity) => asInt64(a.q) !== undefined)
  env.registerFunction(
    `${Q}.add(${Q}): ${Q}`,
    (a: CelQuantity, b: CelQuantity) => new CelQuantity(addQuantity(a.q, b.q)),
  )
  env.registerFunction(
    `${Q}.add(int): ${Q}`,
    (a: CelQuantity, n: bigint) => new CelQuantity(addQuantity(a.q, intQuantity(n))),
  )
  env.registerFunction(
    `${Q}.sub(${Q}): ${Q}`,
    (a: CelQuantity, b: CelQuantity) => new CelQuantity(subQuantity(a.q, b.q)),
  )
  env.registerFunction(
    `${Q}.sub(int): ${Q}`,
    (a: CelQuantity, n: bigint) => new CelQuantity(subQuantity(a.q, intQuantity(n))),
  )
  env.registerOperator(
    `${Q} == ${Q}`,
    (a: CelQuantity, b: CelQuantity) => cmpQuantity(a.q, b.q) === 0,
  )
}
