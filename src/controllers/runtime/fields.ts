/**
 * The fields of an object a controller reads, as a tree: `true` keeps a field whole, `false` drops
 * it, and a nested tree keeps only the fields it names (of each element, when the field is a list).
 * `'*': true` keeps every field the tree does not name, so `{ '*': true, env: false }` drops one.
 */
export interface Fields {
  readonly [field: string]: boolean | Fields
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The part of `value` the tree keeps; a value that is not an object (or a list of them) is kept as is. */
export function pickFields(value: unknown, fields: Fields): unknown {
  if (Array.isArray(value)) return value.map((v) => pickFields(v, fields))
  if (!isObject(value)) return value
  const rest = fields['*'] === true
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const want = Object.prototype.hasOwnProperty.call(fields, k) ? fields[k]! : rest
    if (want === true) out[k] = v
    else if (want !== false) out[k] = pickFields(v, want)
  }
  return out
}

/** Whether the tree keeps the field `name` whole (a partial write of it from a projection would lose data). */
export function keepsWhole(fields: Fields | undefined, name: string): boolean {
  if (fields === undefined) return true
  const want = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : fields['*']
  return want === true
}

/** Both trees' fields: what either keeps, the union. */
export function mergeFields(a: Fields, b: Fields): Fields {
  const out: Record<string, boolean | Fields> = { ...a }
  for (const [k, w] of Object.entries(b)) {
    const v = out[k]
    if (v === undefined || v === false) out[k] = w
    else if (v === true || w === true) out[k] = true
    else if (w !== false) out[k] = mergeFields(v, w)
  }
  return out
}
