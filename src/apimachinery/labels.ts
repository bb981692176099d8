import {
  aggregateMessage,
  formatCause,
  invalid,
  notSupported,
  type FieldCause,
} from './field-errors'
import { goStringSlice } from './go-format'
import { isQualifiedName, isValidLabelValue } from './field-formats'

/**
 * Label selectors as k8s.io/apimachinery/pkg/labels parses, matches and prints them, including the
 * exact parse errors kube-apiserver returns for a bad `labelSelector` query parameter.
 */

/** A selector the server cannot use; its message is what kube-apiserver answers with a 400. */
export class SelectorError extends Error {
  override name = 'SelectorError'
}

/** selection.Operator: `!` is DoesNotExist, `exists` Exists, `gt`/`lt` the integer comparisons. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt'

export interface LabelRequirement {
  readonly key: string
  readonly operator: SelectorOperator
  readonly values: readonly string[]
}

export interface LabelSelector {
  /** ANDed, sorted by key */
  readonly requirements: readonly LabelRequirement[]
  /** a nil metav1.LabelSelector: matches no object at all */
  readonly nothing?: boolean
}

/** metav1.LabelSelector as it appears in object specs. */
export interface MetaLabelSelector {
  matchLabels?: Record<string, string> | null
  matchExpressions?: MetaLabelSelectorRequirement[] | null
}

export interface MetaLabelSelectorRequirement {
  key: string
  operator: string
  values?: string[] | null
}

export const everything: LabelSelector = Object.freeze({
  requirements: Object.freeze([]) as readonly LabelRequirement[],
})
export const nothing: LabelSelector = Object.freeze({
  requirements: Object.freeze([]) as readonly LabelRequirement[],
  nothing: true,
})

export const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt']
const validOperators = [...binaryOperators, 'exists', '!']

// Requirements

// Go's strconv.ParseInt(s, 10, 64).
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined
  const n = BigInt(s)
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined
}

/**
 * labels.NewRequirement: validates the key, the operator's value count and every value, and throws
 * the aggregated field errors. `path` prefixes the field names as field.WithPath would.
 */
export function newRequirement(
  key: string,
  operator: SelectorOperator,
  values: readonly string[],
  path = '',
): LabelRequirement {
  const at = (child: string) => (path ? `${path}.${child}` : child)
  const causes: FieldCause[] = []
  const keyErrs = isQualifiedName(key)
  if (keyErrs.length) causes.push(invalid(at('key'), key, keyErrs.join('; ')))
  const valuesPath = at('values')
  switch (operator) {
    case 'in':
    case 'notin':
      if (!values.length)
        causes.push(
          invalid(
            valuesPath,
            values,
            "for 'in', 'notin' operators, values set can't be empty",
            goStringSlice(values.length ? values : null),
          ),
        )
      break
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        causes.push(
          invalid(
            valuesPath,
            values,
            'exact-match compatibility requires one single value',
            goStringSlice(values),
          ),
        )
      break
    case 'exists':
    case '!':
      if (values.length)
        causes.push(
          invalid(
            valuesPath,
            values,
            'values set must be empty for exists and does not exist',
            goStringSlice(values),
          ),
        )
      break
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        causes.push(
          invalid(
            valuesPath,
            values,
            "for 'Gt', 'Lt' operators, exactly one value is required",
            goStringSlice(values),
          ),
        )
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined)
          causes.push(
            invalid(
              `${valuesPath}[${i}]`,
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          )
      })
      break
    default:
      causes.push(notSupported(at('operator'), operator, validOperators))
  }
  values.forEach((v, i) => {
    const errs = isValidLabelValue(v)
    if (errs.length) causes.push(invalid(`${valuesPath}[${i}][${key}]`, v, errs.join('; ')))
  })
  if (causes.length) throw new SelectorError(aggregateMessage(causes))
  return { key, operator, values: [...values] }
}

export function requirementMatches(
  r: LabelRequirement,
  labels: Record<string, string> | undefined,
): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key)
  const value = has ? labels![r.key] : undefined
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value!)
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value!)
    case 'exists':
      return has
    case '!':
      return !has
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false
      const actual = parseInt64(value!)
      const bound = parseInt64(r.values[0])
      if (actual === undefined || bound === undefined) return false
      return r.operator === 'gt' ? actual > bound : actual < bound
    }
  }
}

export function matchesLabels(sel: LabelSelector, labels?: Record<string, string> | null): boolean {
  if (sel.nothing) return false
  const l = labels ?? undefined
  return sel.requirements.every((r) => requirementMatches(r, l))
}

/** True for a selector that restricts nothing (an empty string or an empty metav1.LabelSelector). */
export function isEverything(sel: LabelSelector): boolean {
  return !sel.nothing && sel.requirements.length === 0
}

/** The value a selector pins `key` to (`key=v`, `key==v`, `key in (v)`), if it does. */
export function requiresExactMatch(sel: LabelSelector, key: string): string | undefined {
  const r = sel.requirements.find((x) => x.key === key)
  if (!r) return undefined
  return (r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1
    ? r.values[0]
    : undefined
}

// Printing

export function byteSorted(values: readonly string[]): string[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export function requirementString(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key
  switch (r.operator) {
    case 'exists':
    case '!':
      return s
    case 'in':
      s += ' in '
      break
    case 'notin':
      s += ' notin '
      break
    case 'gt':
      s += '>'
      break
    case 'lt':
      s += '<'
      break
    default:
      s += r.operator
  }
  const values = r.values.length === 1 ? r.values[0] : byteSorted(r.values).join(',')
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${values})` : s + values
}

/** Selector.String(): requirements joined by commas; empty for everything and for nothing. */
export function labelSelectorString(sel: LabelSelector): string {
  return sel.requirements.map(requirementString).join(',')
}

// metav1.LabelSelector

export function sortByKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/** metav1.LabelSelectorAsSelector: null is nothing, an empty selector everything. */
export function selectorFromLabelSelector(ls: MetaLabelSelector | null | undefined): LabelSelector {
  if (ls === null || ls === undefined) return nothing
  const matchLabels = ls.matchLabels ?? {}
  const expressions = ls.matchExpressions ?? []
  if (Object.keys(matchLabels).length + expressions.length === 0) return everything
  const reqs: LabelRequirement[] = []
  for (const [k, v] of Object.entries(matchLabels)) reqs.push(newRequirement(k, '=', [v]))
  for (const expr of expressions) {
    let op: SelectorOperator
    switch (expr.operator) {
      case 'In':
        op = 'in'
        break
      case 'NotIn':
        op = 'notin'
        break
      case 'Exists':
        op = 'exists'
        break
      case 'DoesNotExist':
        op = '!'
        break
      default:
        throw new SelectorError(`"${expr.operator}" is not a valid label selector operator`)
    }
    reqs.push(newRequirement(expr.key, op, expr.values ?? []))
  }
  return { requirements: sortByKey(reqs) }
}

/** labels.SelectorFromSet: every label must be present with that value. */
export function selectorFromSet(set: Record<string, string> | null | undefined): LabelSelector {
  const reqs = Object.entries(set ?? {}).map(
    ([key, v]): LabelRequirement => ({ key, operator: '=', values: [v] }),
  )
  return { requirements: sortByKey(reqs) }
}

/**
 * A metav1.LabelSelector in the string form kube-apiserver prints in a Scale's status.selector,
 * e.g. `app=web,tier in (a,b)`. Throws SelectorError for a selector that does not convert.
 */
export function formatLabelSelector(ls: MetaLabelSelector | null | undefined): string {
  return labelSelectorString(selectorFromLabelSelector(ls))
}
