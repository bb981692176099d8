import {
  type LabelRequirement,
  type LabelSelector,
  SelectorError,
  type SelectorOperator,
  binaryOperators,
  byteSorted,
  everything,
  newRequirement,
  sortByKey,
} from './labels'
import { formatCause, invalid } from './field-errors'
import { isQualifiedName } from './field-formats'

/** The label selector string grammar (labels.Parse), with kube-apiserver's parse errors. */

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
const isSpecial = (ch: string) =>
  ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<'

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
    return item.tok === Tok.In || item.tok === Tok.NotIn
      ? { tok: Tok.Identifier, lit: item.lit }
      : item
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
          if (e instanceof SelectorError)
            throw new SelectorError(`unable to parse requirement: ${e.message}`)
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
    if (item.tok !== Tok.Identifier)
      throw new SelectorError(`found '${item.lit}', expected: identifier`)
    const keyErrs = isQualifiedName(item.lit)
    // The key is checked with no field path, which Go prints as <nil>.
    if (keyErrs.length)
      throw new SelectorError(formatCause(invalid('<nil>', item.lit, keyErrs.join('; '))))
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
      if (this.consume().tok !== Tok.ClosedPar)
        throw new SelectorError(`found '${lit}', expected: ')'`)
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
