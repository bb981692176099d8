// A reader for the small subset of TOML that wrangler.toml files use: comments, bare/quoted/dotted
// keys, [tables], [[arrays of tables]], basic and literal strings, numbers, booleans, (multi-line)
// arrays and inline tables. Anything else (multi-line strings, dates, ...) throws TomlSubsetError
// so the caller can fall back to wrangler's own, complete but slow to load, parser.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable
export interface TomlTable {
  [key: string]: TomlValue
}

export class TomlSubsetError extends Error {
  override name = 'TomlSubsetError'
}

export function parseTomlSubset(text: string): TomlTable {
  return new Reader(text).document()
}

const BARE_KEY = /[A-Za-z0-9_-]/

class Reader {
  private pos = 0
  constructor(private readonly src: string) {}

  document(): TomlTable {
    const root: TomlTable = {}
    let current = root
    for (;;) {
      this.skipBlank(true)
      if (this.pos >= this.src.length) return root
      if (this.peek() === '[') {
        const isArray = this.src.startsWith('[[', this.pos)
        this.pos += isArray ? 2 : 1
        const path = this.keyPath()
        this.expect(isArray ? ']]' : ']')
        current = isArray ? this.appendTable(root, path) : this.openTable(root, path)
      } else {
        const path = this.keyPath()
        this.expect('=')
        this.assign(current, path, this.value())
      }
      this.endOfLine()
    }
  }

  private value(): TomlValue {
    this.skipSpaces()
    const c = this.peek()
    if (c === '"') return this.basicString()
    if (c === "'") return this.literalString()
    if (c === '[') return this.array()
    if (c === '{') return this.inlineTable()
    const m = /^(true|false|[+-]?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?)(?=[\s,\]}#]|$)/.exec(this.src.slice(this.pos))
    if (!m) this.fail('unsupported value')
    this.pos += m[0].length
    if (m[0] === 'true') return true
    if (m[0] === 'false') return false
    return Number(m[0].replace(/_/g, ''))
  }

  private array(): TomlValue[] {
    this.expect('[')
    const out: TomlValue[] = []
    for (;;) {
      this.skipBlank(true)
      if (this.peek() === ']') break
      out.push(this.value())
      this.skipBlank(true)
      if (this.peek() === ',') this.pos++
      else if (this.peek() !== ']') this.fail("expected ',' or ']'")
    }
    this.pos++
    return out
  }

  private inlineTable(): TomlTable {
    this.expect('{')
    const out: TomlTable = {}
    this.skipSpaces()
    if (this.peek() === '}') {
      this.pos++
      return out
    }
    for (;;) {
      const path = this.keyPath()
      this.expect('=')
      this.assign(out, path, this.value())
      this.skipSpaces()
      if (this.peek() === '}') break
      this.expect(',')
    }
    this.pos++
    return out
  }

  private basicString(): string {
    if (this.src.startsWith('"""', this.pos)) this.fail('multi-line strings are not supported')
    this.pos++
    let out = ''
    for (;;) {
      const c = this.src[this.pos++]
      if (c === undefined || c === '\n') this.fail('unterminated string')
      if (c === '"') return out
      if (c !== '\\') {
        out += c
        continue
      }
      const e = this.src[this.pos++]
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' }
      if (e !== undefined && e in simple) out += simple[e]
      else if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8
        const hex = this.src.slice(this.pos, this.pos + len)
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail('bad unicode escape')
        out += String.fromCodePoint(parseInt(hex, 16))
        this.pos += len
      } else this.fail('bad escape')
    }
  }

  private literalString(): string {
    if (this.src.startsWith("'''", this.pos)) this.fail('multi-line strings are not supported')
    const end = this.src.indexOf("'", this.pos + 1)
    const nl = this.src.indexOf('\n', this.pos + 1)
    if (end < 0 || (nl >= 0 && nl < end)) this.fail('unterminated string')
    const out = this.src.slice(this.pos + 1, end)
    this.pos = end + 1
    return out
  }

  private keyPath(): string[] {
    const path: string[] = []
    for (;;) {
      this.skipSpaces()
      const c = this.peek()
      if (c === '"') path.push(this.basicString())
      else if (c === "'") path.push(this.literalString())
      else {
        const start = this.pos
        while (this.pos < this.src.length && BARE_KEY.test(this.src[this.pos]!)) this.pos++
        if (start === this.pos) this.fail('expected a key')
        path.push(this.src.slice(start, this.pos))
      }
      this.skipSpaces()
      if (this.peek() !== '.') return path
      this.pos++
    }
  }

  private openTable(root: TomlTable, path: string[]): TomlTable {
    let t = root
    for (const key of path) {
      const next = t[key] ?? (t[key] = {})
      t = Array.isArray(next) ? lastTable(next, key) : asTable(next, key)
    }
    return t
  }

  private appendTable(root: TomlTable, path: string[]): TomlTable {
    const parent = this.openTable(root, path.slice(0, -1))
    const key = path[path.length - 1]!
    const list = parent[key] ?? (parent[key] = [])
    if (!Array.isArray(list)) this.fail(`'${key}' is not an array of tables`)
    const table: TomlTable = {}
    list.push(table)
    return table
  }

  private assign(table: TomlTable, path: string[], value: TomlValue): void {
    const parent = this.openTable(table, path.slice(0, -1))
    const key = path[path.length - 1]!
    if (key in parent) this.fail(`duplicate key '${key}'`)
    parent[key] = value
  }

  private endOfLine(): void {
    this.skipSpaces()
    this.skipComment()
    if (this.pos < this.src.length && this.src[this.pos] !== '\n' && !this.src.startsWith('\r\n', this.pos)) {
      this.fail('expected end of line')
    }
  }

  private skipBlank(newlines: boolean): void {
    for (;;) {
      this.skipSpaces()
      this.skipComment()
      const c = this.peek()
      if (newlines && (c === '\n' || c === '\r')) this.pos++
      else return
    }
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++
  }

  private skipComment(): void {
    if (this.peek() !== '#') return
    while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++
  }

  private expect(token: string): void {
    this.skipSpaces()
    if (!this.src.startsWith(token, this.pos)) this.fail(`expected '${token}'`)
    this.pos += token.length
  }

  private peek(): string | undefined {
    return this.src[this.pos]
  }

  private fail(message: string): never {
    const line = this.src.slice(0, this.pos).split('\n').length
    throw new TomlSubsetError(`line ${line}: ${message}`)
  }
}

function asTable(v: TomlValue, key: string): TomlTable {
  if (typeof v !== 'object' || Array.isArray(v)) throw new TomlSubsetError(`'${key}' is not a table`)
  return v
}

function lastTable(list: TomlValue[], key: string): TomlTable {
  const last = list[list.length - 1]
  if (last === undefined) throw new TomlSubsetError(`'${key}' is an empty array`)
  return asTable(last, key)
}
