/**
 * Go's base64.StdEncoding as encoding/json decodes a `[]byte` field: standard alphabet, padding
 * required, CR and LF skipped anywhere. Reports the first problem as Go's CorruptInputError does.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const valid = new Uint8Array(256)
for (const ch of alphabet) valid[ch.charCodeAt(0)] = 1

const CR = 13
const LF = 10
const PAD = 61 // '='

/** `illegal base64 data at input byte N` for the first byte Go's decoder refuses; undefined when it decodes. */
export function base64Error(text: string): string | undefined {
  const src = new TextEncoder().encode(text)
  const at = (n: number) => `illegal base64 data at input byte ${n}`
  const newline = (b: number | undefined) => b === CR || b === LF
  let si = 0
  for (;;) {
    // One quantum of four symbols.
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined
        return at(si - j)
      }
      const b = src[si++]!
      if (valid[b]) continue
      if (newline(b)) {
        j--
        continue
      }
      if (b !== PAD || j < 2) return at(si - 1)
      if (j === 2) {
        // "==" is expected: the first "=" is consumed.
        while (si < src.length && newline(src[si])) si++
        if (si === src.length) return at(src.length)
        if (src[si] !== PAD) return at(si - 1)
        si++
      }
      while (si < src.length && newline(src[si])) si++
      return si < src.length ? at(si) : undefined
    }
  }
}
