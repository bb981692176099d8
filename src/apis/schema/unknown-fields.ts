/**
 * Unknown-field reporting with the same field paths and message kube-apiserver's strict decoding
 * uses (sigs.k8s.io/json): struct fields and map keys join with ".", list elements add "[i]".
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { checkDecode } from './typed-decode'

/**
 * Every unknown field of `value` decoded as struct `structName`, in document order, e.g.
 * `spec.template.spec.containers[0].imagee`. Values of the wrong type are reported by checkDecode.
 */
export function findUnknownFields(value: unknown, structName: string, set: SchemaSet): string[] {
  return checkDecode(value, structName, set).unknown
}

/** Escapes Go's strconv.Quote writes with a backslash and a letter. */
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
}

/** Go's strconv.Quote, which kube-apiserver uses for the field path in the message. */
function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    if (Object.hasOwn(SHORT_ESCAPES, ch)) out += SHORT_ESCAPES[ch]
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0')
    else if (cp >= 0x80 && cp <= 0x9f) out += '\\u' + cp.toString(16).padStart(4, '0')
    // Go's JSON decoding turns lone surrogates into U+FFFD, which Quote prints as is
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd'
    else out += ch
  }
  return out + '"'
}

/**
 * The error message kube-apiserver returns for unknown fields under fieldValidation=Strict, e.g.
 * `strict decoding error: unknown field "spec.foo", unknown field "spec.bar"`.
 */
export function strictDecodingMessage(paths: string[]): string {
  return 'strict decoding error: ' + paths.map((p) => `unknown field ${goQuote(p)}`).join(', ')
}
