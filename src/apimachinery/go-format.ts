/** Go's %q: double quotes, backslash escapes for quotes, backslashes and control characters. */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const code = ch.codePointAt(0)!
    switch (ch) {
      case '"':
        out += '\\"'
        break
      case '\\':
        out += '\\\\'
        break
      case '\n':
        out += '\\n'
        break
      case '\r':
        out += '\\r'
        break
      case '\t':
        out += '\\t'
        break
      case '\x07':
        out += '\\a'
        break
      case '\b':
        out += '\\b'
        break
      case '\f':
        out += '\\f'
        break
      case '\v':
        out += '\\v'
        break
      default:
        if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
        else if (code >= 0x80 && code < 0xa0) out += `\\u${code.toString(16).padStart(4, '0')}`
        else out += ch
    }
  }
  return out + '"'
}

function goSortedKeys(m: Record<string, string>): string[] {
  // Go orders map keys by bytes; code-unit order agrees for the ASCII keys labels allow.
  return Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** %#v of a map[string]string, nil when absent: `map[string]string{"app":"web", "tier":"db"}`. */
export function goStringMap(m: Record<string, string> | null | undefined): string {
  if (m === null || m === undefined) return 'map[string]string(nil)'
  return `map[string]string{${goSortedKeys(m)
    .map((k) => `${goQuote(k)}:${goQuote(m[k])}`)
    .join(', ')}}`
}

/** %#v of a []string, nil when absent: `[]string{"a", "b"}`. */
export function goStringSlice(a: readonly string[] | null | undefined): string {
  if (a === null || a === undefined) return '[]string(nil)'
  return `[]string{${a.map(goQuote).join(', ')}}`
}

/** %#v of an intstr.IntOrString. */
export function goIntOrString(v: number | string): string {
  return typeof v === 'number'
    ? `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`
    : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`
}

/** Go prints a non-nil pointer nested in a struct as its address; any address reads the same to a person. */
export function goPointer(type: string, present: boolean): string {
  return `(*${type})(${present ? '0xc000000000' : 'nil'})`
}
/** Go's %v of a float64: the shortest digits, in exponent form below 1e-4 and from 1e21. */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN'
  if (n === 0) return Object.is(n, -0) ? '-0' : '0'
  const [mantissa, exp] = n.toExponential().split('e') as [string, string]
  const e = Number(exp)
  if (e < -4 || e >= 21)
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  return String(n)
}
