import { isJsonObject as isObject } from './json-value'

/**
 * The JSONPath dialect of kubectl and kube-apiserver (k8s.io/client-go/util/jsonpath) for one
 * expression such as `.status.conditions[?(@.type=="Ready")].status`, evaluated with missing keys
 * allowed as additionalPrinterColumns are; and the Table cell a CRD printer column makes of the
 * result.
 *
 * Supported: fields (`.a`, dots escaped as `\.`), `['key']` (parsed as `.key`, so a dot inside
 * still splits it unless escaped), indexes and slices (`[0]`, `[-1]`, `[1:3]`, `[::2]`), `[*]`
 * and `.*`, unions (`[0,2]`), recursive descent (`..name`), and filters with `==`, `!=`, `<`,
 * `<=`, `>`, `>=` or existence (`[?(@.ready)]`).
 */

export type JsonPathNode = Node

type Node =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'array'; params: [Param, Param, Param] }
  | { kind: 'union'; lists: Node[][] }
  | { kind: 'filter'; left: Node[]; right: Node[]; op: string }
  | { kind: 'literal'; value: Literal }

interface Param {
  known: boolean
  value: number
  /** the end of a plain index, one past its start */
  derived?: boolean
}

/** A literal in a filter, with the Go kind it compares as. */
type Literal =
  | { type: 'string'; value: string }
  | { type: 'int' | 'float'; value: number }
  | { type: 'bool'; value: boolean }

export class JsonPathError extends Error {}

const isTerminator = (c: string | undefined) => c === undefined || ' \t\r\n.,[]$@{}'.includes(c)
const isAlphaNumeric = (c: string) => c === '_' || /[\p{L}\p{Nd}]/u.test(c)
const sliceRe = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/
const dictKeyRe = /^'([^']*)'$/
const filterRe = /^([^!<>=]+)([!<>=]+)(.+?)$/

/** Parses the inside of one `{…}` action into its nodes. */
function parseAction(text: string): Node[] {
  const nodes: Node[] = []
  let pos = 0
  const chars = [...text]
  const rest = () => chars.slice(pos).join('')

  const parseField = () => {
    let value = ''
    while (pos < chars.length) {
      const c = chars[pos]!
      if (c === '\\') {
        value += c + (chars[pos + 1] ?? '')
        pos += 2
        continue
      }
      if (isTerminator(c)) break
      value += c
      pos++
    }
    nodes.push(
      value === '*' ? { kind: 'wildcard' } : { kind: 'field', name: value.replaceAll('\\', '') },
    )
  }

  while (pos < chars.length) {
    const r = rest()
    if (r.startsWith('[?(')) {
      pos += 3
      const start = pos
      let quote: string | undefined
      for (;;) {
        const c = chars[pos++]
        if (c === undefined || c === '\n') throw new JsonPathError('unterminated filter')
        if (c === '"' || c === "'") {
          if (quote === undefined) quote = c
          else if (c === quote && chars[pos - 2] !== '\\') quote = undefined
        } else if (c === ')' && quote === undefined) break
      }
      if (chars[pos++] !== ']') throw new JsonPathError('unclosed array expect ]')
      const inner = chars.slice(start, pos - 2).join('')
      const m = filterRe.exec(inner)
      if (m)
        nodes.push({
          kind: 'filter',
          left: parseAction(m[1]!),
          right: parseAction(m[3]!),
          op: m[2]!,
        })
      else nodes.push({ kind: 'filter', left: parseAction(inner), right: [], op: 'exists' })
      continue
    }
    if (r.startsWith('..')) {
      if (nodes[nodes.length - 1]?.kind === 'recursive')
        throw new JsonPathError('invalid multiple recursive descent')
      pos += 2
      nodes.push({ kind: 'recursive' })
      if (pos < chars.length && isAlphaNumeric(chars[pos]!)) parseField()
      continue
    }
    const c = chars[pos++]!
    if (c === ' ' || c === '@' || c === '$') continue
    if (c === '.') {
      parseField()
    } else if (c === '[') {
      const end = chars.indexOf(']', pos)
      const nl = chars.indexOf('\n', pos)
      if (end < 0 || (nl >= 0 && nl < end)) throw new JsonPathError('unterminated array')
      nodes.push(...parseArray(chars.slice(pos, end).join('')))
      pos = end + 1
    } else if (c === '"' || c === "'") {
      const start = pos - 1
      for (;;) {
        const q = chars[pos++]
        if (q === undefined || q === '\n') throw new JsonPathError('unterminated quoted string')
        if (q === c && chars[pos - 2] !== '\\') break
      }
      nodes.push({
        kind: 'literal',
        value: { type: 'string', value: unquote(chars.slice(start, pos).join('')) },
      })
    } else if (c === '+' || c === '-' || /\d/.test(c)) {
      const start = pos - 1
      while (pos < chars.length && /[\d.]/.test(chars[pos]!)) pos++
      const s = chars.slice(start, pos).join('')
      if (/^[+-]?\d+$/.test(s))
        nodes.push({ kind: 'literal', value: { type: 'int', value: Number(s) } })
      else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s))
        nodes.push({ kind: 'literal', value: { type: 'float', value: Number(s) } })
      else throw new JsonPathError(`cannot parse number ${s}`)
    } else if (isAlphaNumeric(c)) {
      const start = pos - 1
      while (!isTerminator(chars[pos])) pos++
      const word = chars.slice(start, pos).join('')
      if (word === 'true' || word === 'false')
        nodes.push({ kind: 'literal', value: { type: 'bool', value: word === 'true' } })
      else throw new JsonPathError(`unrecognized identifier ${word}`)
    } else {
      throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(c)}`)
    }
  }
  return nodes
}

function parseArray(text: string): Node[] {
  const inner = text === '*' ? ':' : text
  const parts = inner.split(',')
  if (parts.length > 1)
    return [{ kind: 'union', lists: parts.map((p) => parseAction(`[${p.trim()}]`)) }]
  const key = dictKeyRe.exec(inner)
  if (key) return parseAction(`.${key[1]}`)
  const m = sliceRe.exec(inner)
  if (!m) throw new JsonPathError(`invalid array index ${inner}`)
  const params: [Param, Param, Param] = [
    { known: false, value: 0 },
    { known: false, value: 0 },
    { known: false, value: 0 },
  ]
  for (let i = 0; i < 3; i++) {
    let v = m[i + 1] ?? ''
    if (v !== '') {
      if (i > 0) v = v.slice(1)
      if (i > 0 && v === '') params[i] = { known: false, value: 0 }
      else if (!/^-?\d+$/.test(v)) throw new JsonPathError(`array index ${v} is not a number`)
      else params[i] = { known: true, value: Number(v) }
    } else if (i === 1) {
      params[i] = { known: true, value: params[0].value + 1, derived: true }
    }
  }
  return [{ kind: 'array', params }]
}

/** A quoted filter operand: Go's escapes, in single or double quotes. */
function unquote(s: string): string {
  const body = s.slice(1, -1)
  const escapes: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    '\\': '\\',
    '"': '"',
    "'": "'",
    a: '\x07',
    b: '\b',
    f: '\f',
    v: '\v',
  }
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16))
    if (Object.hasOwn(escapes, e)) return escapes[e]!
    throw new JsonPathError(`unquote string ${s} error invalid syntax`)
  })
}

/**
 * Parses `path`, bare (`.spec.replicas`) or as one template action (`{.spec.replicas}`); throws a
 * JsonPathError when kube-apiserver would reject it as a printer column's JSONPath.
 */
export function parseJsonPath(path: string): Node[] {
  const trimmed = path.trim()
  const inner = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : path
  if (inner.includes('{') || inner.includes('}')) throw new JsonPathError('unsupported template')
  return parseAction(inner)
}

// ---------------------------------------------------------------------------------------------
// Evaluation

type Obj = Record<string, unknown>

const isNil = (v: unknown) => v === null || v === undefined

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v
  if (isObject(v)) return Object.values(v)
  if (typeof v === 'string') return [...new TextEncoder().encode(v)]
  return []
}

function evalList(input: unknown[], nodes: Node[]): unknown[] {
  let cur = input
  for (const node of nodes) cur = evalNode(cur, node)
  return cur
}

function evalNode(input: unknown[], node: Node): unknown[] {
  switch (node.kind) {
    case 'literal':
      return input.map(() => new Lit(node.value))
    case 'field': {
      const out: unknown[] = []
      for (const v of input) if (isObject(v) && Object.hasOwn(v, node.name)) out.push(v[node.name])
      return out
    }
    case 'wildcard':
      return input.flatMap((v) => (isNil(v) ? [] : children(v)))
    case 'recursive':
      return evalRecursive(input)
    case 'array':
      return input.flatMap((v) => evalArray(v, node.params))
    case 'union':
      return node.lists.flatMap((list) => evalList(input, list))
    case 'filter':
      return input.flatMap((v) => evalFilter(v, node))
  }
}

function evalRecursive(input: unknown[]): unknown[] {
  const out: unknown[] = []
  for (const v of input) {
    if (isNil(v)) continue
    const kids = children(v)
    if (kids.length) out.push(v, ...evalRecursive(kids))
  }
  return out
}

function evalArray(v: unknown, params: [Param, Param, Param]): unknown[] {
  if (isNil(v)) return []
  if (!Array.isArray(v)) throw new JsonPathError(`${typeof v} is not array or slice`)
  const len = v.length
  let start = params[0].known ? params[0].value : 0
  if (start < 0) start += len
  let end = params[1].known ? params[1].value : len
  if (end < 0 || (end === 0 && params[1].derived)) end += len
  if (end === start) return []
  if (start >= len || start < 0)
    throw new JsonPathError(`array index out of bounds: index ${start}, length ${len}`)
  if (end > len || end < 0)
    throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${len}`)
  if (start > end)
    throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`)
  let step = 1
  if (params[2].known) {
    if (params[2].value <= 0) throw new JsonPathError('step must be > 0')
    step = params[2].value
  }
  const out: unknown[] = []
  for (let i = start; i < end; i += step) out.push(v[i])
  return out
}

/** A literal of a filter, once evaluated. */
class Lit {
  constructor(readonly lit: Literal) {}
}

/** The Go kind a value compares as in a filter. */
function comparable(v: unknown): Literal {
  if (v instanceof Lit) return v.lit
  if (typeof v === 'string') return { type: 'string', value: v }
  if (typeof v === 'boolean') return { type: 'bool', value: v }
  if (typeof v === 'number') return { type: Number.isInteger(v) ? 'int' : 'float', value: v }
  throw new JsonPathError('invalid type for comparison')
}

function compare(op: string, left: unknown, right: unknown): boolean {
  const a = comparable(left)
  const b = comparable(right)
  if (a.type !== b.type) throw new JsonPathError('incompatible types for comparison')
  if ((op === '<' || op === '<=' || op === '>' || op === '>=') && a.type === 'bool')
    throw new JsonPathError('invalid type for comparison')
  const x = a.value as string | number | boolean
  const y = b.value as string | number | boolean
  switch (op) {
    case '==':
      return x === y
    case '!=':
      return x !== y
    case '<':
      return x < y
    case '<=':
      return x <= y
    case '>':
      return x > y
    case '>=':
      return x >= y
    default:
      throw new JsonPathError(`unrecognized filter operator ${op}`)
  }
}

function evalFilter(v: unknown, node: Extract<Node, { kind: 'filter' }>): unknown[] {
  if (!Array.isArray(v))
    throw new JsonPathError(`${JSON.stringify(v)} is not array or slice and cannot be filtered`)
  return v.filter((item) => {
    const lefts = evalList([item], node.left)
    if (node.op === 'exists') return lefts.length > 0
    if (lefts.length === 0) return false
    if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time')
    const rights = evalList([item], node.right)
    if (rights.length === 0) return false
    if (rights.length > 1) throw new JsonPathError('can only compare one element at a time')
    return compare(node.op, lefts[0], rights[0])
  })
}

/**
 * The values `path` selects in `obj`, in order; missing keys select nothing. A path that does not
 * parse, or fails to evaluate (an index out of range, a filter over a non-list), selects nothing,
 * as a printer column then shows no value.
 */
export function evaluateJsonPath(path: string, obj: unknown): unknown[] {
  try {
    return evalList([obj], parseJsonPath(path)).map((v) => (v instanceof Lit ? v.lit.value : v))
  } catch (e) {
    if (e instanceof JsonPathError) return []
    throw e
  }
}

// ---------------------------------------------------------------------------------------------
