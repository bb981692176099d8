import { aggregateMessage, formatCause, invalid, notSupported, type FieldCause } from './validation'
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

export const everything: LabelSelector = Object.freeze({ requirements: Object.freeze([]) as readonly LabelRequirement[] })
export const nothing: LabelSelector = Object.freeze({ requirements: Object.freeze([]) as readonly LabelRequirement[], nothing: true })

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt']
const validOperators = [...binaryOperators, 'exists', '!']

// ---------------------------------------------------------------------------------------------
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
export function newRequirement(key: string, operator: SelectorOperator, values: readonly string[], path = ''): LabelRequirement {
  const at = (child: string) => (path ? `${path}.${child}` : child)
  const causes: FieldCause[] = []
  const keyErrs = isQualifiedName(key)
  if (keyErrs.length) causes.push(invalid(at('key'), key, keyErrs.join('; ')))
  const valuesPath = at('values')
  switch (operator) {
    case 'in':
    case 'notin':
      if (!values.length) causes.push(invalid(valuesPath, values, "for 'in', 'notin' operators, values set can't be empty", goStringSlice(values.length ? values : null)))
      break
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) causes.push(invalid(valuesPath, values, 'exact-match compatibility requires one single value', goStringSlice(values)))
      break
    case 'exists':
    case '!':
      if (values.length) causes.push(invalid(valuesPath, values, 'values set must be empty for exists and does not exist', goStringSlice(values)))
      break
    case 'gt':
    case 'lt':
      if (values.length !== 1) causes.push(invalid(valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required", goStringSlice(values)))
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) causes.push(invalid(`${valuesPath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"))
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

export function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
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
  return (r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1 ? r.values[0] : undefined
}

// ---------------------------------------------------------------------------------------------
// Printing

function byteSorted(values: readonly string[]): string[] {
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

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector

function sortByKey(reqs: LabelRequirement[]): LabelRequirement[] {
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
  const reqs = Object.entries(set ?? {}).map(([key, v]): LabelRequirement => ({ key, operator: '=', values: [v] }))
  return { requirements: sortByKey(reqs) }
}

/**
 * A metav1.LabelSelector in the string form kube-apiserver prints in a Scale's status.selector,
 * e.g. `app=web,tier in (a,b)`. Throws SelectorError for a selector that does not convert.
 */
export function formatLabelSelector(ls: MetaLabelSelector | null | undefined): string {
  return labelSelectorString(selectorFromLabelSelector(ls))
}

// ---------------------------------------------------------------------------------------------
// The string grammar (labels.Parse)

const enum Tok {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const literalTokens = new Map<string, Tok>([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
])

interface Scanned {
  tok: Tok
  lit: string
}

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n'
const isSpecial = (ch: string) => ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<'

function lex(s: string): Scanned[] {
  const out: Scanned[] = []
  let pos = 0
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++
    if (pos >= s.length) {
      out.push({ tok: Tok.EndOfString, lit: '' })
      return out
    }
    if (isSpecial(s[pos])) {
      // Longest run of special characters that still forms an operator.
      let buf = ''
      let last: Scanned | undefined
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos]
        const tok = literalTokens.get(buf)
        if (tok !== undefined) {
          last = { tok, lit: buf }
          pos++
        } else if (last) {
          break
        } else {
          pos++
        }
      }
      out.push(last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buf}'` })
    } else {
      let buf = ''
      while (pos < s.length && !isSpecial(s[pos]) && !isWhitespace(s[pos])) buf += s[pos++]
      // Only `in` and `notin` can be keywords here: every other literal holds a special character.
      const tok = literalTokens.get(buf)
      out.push({ tok: tok === Tok.In || tok === Tok.NotIn ? tok : Tok.Identifier, lit: buf })
    }
  }
}

class Parser {
  private pos = 0
  constructor(private readonly items: Scanned[]) {}

  // In a value position `in` and `notin` are plain identifiers, as in `x in (in)`.
  private asValue(item: Scanned): Scanned {
    return item.tok === Tok.In || item.tok === Tok.NotIn ? { tok: Tok.Identifier, lit: item.lit } : item
  }

  private lookahead(values = true): Scanned {
    const item = this.items[this.pos]
    return values ? this.asValue(item) : item
  }

  private consume(values = true): Scanned {
    const item = this.items[this.pos++]
    return values ? this.asValue(item) : item
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = []
    for (;;) {
      const { tok, lit } = this.lookahead()
      if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
        let r: LabelRequirement
        try {
          r = this.parseRequirement()
        } catch (e) {
          if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`)
          throw e
        }
        reqs.push(r)
        const next = this.consume()
        if (next.tok === Tok.EndOfString) return reqs
        if (next.tok === Tok.Comma) {
          const after = this.lookahead()
          if (after.tok !== Tok.Identifier && after.tok !== Tok.DoesNotExist) {
            throw new SelectorError(`found '${after.lit}', expected: identifier after ','`)
          }
        } else {
          throw new SelectorError(`found '${next.lit}', expected: ',' or 'end of string'`)
        }
      } else if (tok === Tok.EndOfString) {
        return reqs
      } else {
        throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`)
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator()
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, [])
    const op = this.parseOperator()
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue()
    return newRequirement(key, op, byteSorted([...values]))
  }

  private parseKeyAndInferOperator(): { key: string; operator?: SelectorOperator } {
    let operator: SelectorOperator | undefined
    let item = this.consume()
    if (item.tok === Tok.DoesNotExist) {
      operator = '!'
      item = this.consume()
    }
    if (item.tok !== Tok.Identifier) throw new SelectorError(`found '${item.lit}', expected: identifier`)
    const keyErrs = isQualifiedName(item.lit)
    // The key is checked with no field path, which Go prints as <nil>.
    if (keyErrs.length) throw new SelectorError(formatCause(invalid('<nil>', item.lit, keyErrs.join('; '))))
    const next = this.lookahead().tok
    if ((next === Tok.EndOfString || next === Tok.Comma) && operator !== '!') operator = 'exists'
    return { key: item.lit, operator }
  }

  private parseOperator(): SelectorOperator {
    const { tok, lit } = this.consume(false)
    switch (tok) {
      case Tok.In:
        return 'in'
      case Tok.Equals:
        return '='
      case Tok.DoubleEquals:
        return '=='
      case Tok.GreaterThan:
        return 'gt'
      case Tok.LessThan:
        return 'lt'
      case Tok.NotIn:
        return 'notin'
      case Tok.NotEquals:
        return '!='
      default:
        throw new SelectorError(`found '${lit}', expected: ${binaryOperators.join(', ')}`)
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume()
    if (open.tok !== Tok.OpenPar) throw new SelectorError(`found '${open.lit}' expected: '('`)
    const { tok, lit } = this.lookahead()
    if (tok === Tok.Identifier || tok === Tok.Comma) {
      const s = this.parseIdentifiersList()
      if (this.consume().tok !== Tok.ClosedPar) throw new SelectorError(`found '${lit}', expected: ')'`)
      return s
    }
    if (tok === Tok.ClosedPar) {
      this.consume()
      return new Set([''])
    }
    throw new SelectorError(`found '${lit}', expected: ',', ')' or identifier`)
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>()
    for (;;) {
      const { tok, lit } = this.consume()
      if (tok === Tok.Identifier) {
        s.add(lit)
        const next = this.lookahead()
        if (next.tok === Tok.Comma) continue
        if (next.tok === Tok.ClosedPar) return s
        throw new SelectorError(`found '${next.lit}', expected: ',' or ')'`)
      } else if (tok === Tok.Comma) {
        // Empty values are allowed: `(,a)`, `(a,)` and `(a,,b)` all contain "".
        if (s.size === 0) s.add('')
        const next = this.lookahead().tok
        if (next === Tok.ClosedPar) {
          s.add('')
          return s
        }
        if (next === Tok.Comma) s.add('')
      } else {
        throw new SelectorError(`found '${lit}', expected: ',', or identifier`)
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead().tok
    if (next === Tok.EndOfString || next === Tok.Comma) return new Set([''])
    const { tok, lit } = this.consume()
    if (tok === Tok.Identifier) return new Set([lit])
    throw new SelectorError(`found '${lit}', expected: identifier`)
  }
}

/**
 * Parses a `labelSelector` string: `=`, `==`, `!=`, `in (…)`, `notin (…)`, `key`, `!key`, `>`
 * and `<`, comma-joined. An empty string selects everything. Throws SelectorError with the
 * message kube-apiserver returns.
 */
export function parseLabelSelector(s: string): LabelSelector {
  const reqs = new Parser(lex(s)).parse()
  return reqs.length ? { requirements: sortByKey(reqs) } : everything
}
