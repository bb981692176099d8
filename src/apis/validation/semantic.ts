/**
 * Equality of decoded objects as apiequality.Semantic.DeepEqual sees the typed values: a field
 * that is absent, null, an empty string, an empty list or an empty object reads as its zero value,
 * so `command: []` and no command are the same; quantities compare by amount (`1Gi` = `1024Mi`).
 * And a readable account of what differs, in the spirit of the cmp.Diff upstream appends.
 */
import { isJsonObject, jsonEqual, type Json } from '../../apimachinery/json-value'
import { quantityOf } from '../../apimachinery/quantity'

/** Maps whose values are quantities (ResourceList): compared by amount. */
const quantityMaps = new Set(['requests', 'limits', 'overhead', 'capacity', 'hard'])

/** A quantity as its exact amount (nanounits), so two spellings of one amount compare equal. */
function amount(v: unknown): unknown {
  const q = quantityOf(v)
  return q === undefined ? v : `${q.nanos}n`
}

/**
 * The value with every zero-valued field dropped (undefined when the whole value is zero);
 * `amounts` also replaces the quantities of resource lists by their amounts.
 */
export function zeroless(v: unknown, amounts = false, key?: string): unknown {
  if (v === null || v === undefined || v === '') return undefined
  if (Array.isArray(v))
    return v.length ? v.map((item) => zeroless(item, amounts) ?? null) : undefined
  if (!isJsonObject(v)) return v
  const out: Json = {}
  const quantities = amounts && key !== undefined && quantityMaps.has(key)
  for (const [k, item] of Object.entries(v)) {
    const kept =
      quantities && item !== null && item !== '' ? amount(item) : zeroless(item, amounts, k)
    if (kept !== undefined) out[k] = kept
  }
  return Object.keys(out).length ? out : undefined
}

/** apiequality.Semantic.DeepEqual of two decoded values. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(zeroless(a, true) ?? null, zeroless(b, true) ?? null)
}

const maxLines = 40
const maxValue = 200

function show(v: unknown): string {
  if (v === undefined) return '<unset>'
  const text = JSON.stringify(v)
  return text.length > maxValue ? `${text.slice(0, maxValue)}…` : text
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return path ? `${path}.${key}` : key
}

function collect(
  a: unknown,
  b: unknown,
  path: string,
  out: string[],
  key?: string,
  inQuantities = false,
): void {
  if (
    inQuantities
      ? jsonEqual(amount(a), amount(b))
      : jsonEqual(zeroless(a, true, key) ?? null, zeroless(b, true, key) ?? null)
  )
    return
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))]
    for (const k of keys)
      collect(a[k], b[k], childPath(path, k), out, k, key !== undefined && quantityMaps.has(key))
    return
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.some(isJsonObject)) {
    a.forEach((item, i) => collect(item, b[i], childPath(path, i), out))
    return
  }
  out.push(`- \t${path}: ${show(a)}`, `+ \t${path}: ${show(b)}`)
}

/**
 * The fields of `next` that differ from `old`, one `-`/`+` pair of lines each under a header
 * naming the type (`core.PodSpec{ … }`), zero values ignored; long values and long lists are cut.
 */
export function describeDiff(typeName: string, old: unknown, next: unknown): string {
  const lines: string[] = []
  collect(zeroless(old), zeroless(next), '', lines)
  const shown =
    lines.length > maxLines
      ? [
          ...lines.slice(0, maxLines),
          `  \t... // ${(lines.length - maxLines) / 2} more changed fields`,
        ]
      : lines
  return [`  ${typeName}{`, ...shown, '  }', ''].join('\n')
}
