/**
 * Unknown-field detection with the same field paths kube-apiserver's strict decoding reports
 * (sigs.k8s.io/json): struct fields and map keys join with ".", list elements add "[i]". Only
 * unknown keys are reported; values of the wrong JSON type are left to type validation.
 */
import type { FieldType, SchemaSet } from './types'

/** kube-apiserver stops accumulating strict decoding errors at this many. */
const MAX_ERRORS = 100

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`)

/**
 * Every unknown field of `value` decoded as struct `structName`, in document order, e.g.
 * `spec.template.spec.containers[0].imagee`. `apiVersion` and `kind` are always known at the top.
 * A struct missing from `set` accepts anything, as do `any` fields, map keys and open structs.
 */
export function findUnknownFields(value: unknown, structName: string, set: SchemaSet): string[] {
  const found: string[] = []
  const seen = new Set<string>()
  const report = (path: string) => {
    if (found.length >= MAX_ERRORS || seen.has(path)) return
    seen.add(path)
    found.push(path)
  }

  const walkStruct = (v: unknown, name: string, path: string, top: boolean): void => {
    if (!isObject(v)) return
    const def = Object.hasOwn(set, name) ? set[name] : undefined
    if (def === undefined || def.open) return
    for (const [key, child] of Object.entries(v)) {
      if (top && (key === 'apiVersion' || key === 'kind')) continue
      const field = Object.hasOwn(def.fields, key) ? def.fields[key] : undefined
      if (field === undefined) report(join(path, key))
      else walk(child, field.type, join(path, key))
    }
  }

  const walk = (v: unknown, type: FieldType, path: string): void => {
    switch (type.kind) {
      case 'scalar':
        return
      case 'ref':
        return walkStruct(v, type.ref, path, false)
      case 'map':
        if (isObject(v)) for (const [key, child] of Object.entries(v)) walk(child, type.values, join(path, key))
        return
      case 'list':
        if (Array.isArray(v)) v.forEach((child, i) => walk(child, type.items, `${path}[${i}]`))
        return
    }
  }

  walkStruct(value, structName, '', true)
  return found
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
