/**
 * Cell formatting shared by several printers: label maps, label selectors, container lists, and
 * tolerant readers for the loosely typed JSON the printers receive.
 */

/** The array, or an empty one when the field is missing or not an array. */
export function list<T>(value: T[] | undefined | null): T[] {
  return Array.isArray(value) ? value : []
}

/** The map, or an empty one when the field is missing or not an object. */
export function record<T>(value: Record<string, T> | undefined | null): Record<string, T> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
}

/** A count field; absent or malformed reads as 0, as Go's zero value would. */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/** `k1=v1,k2=v2` with keys sorted, or `<none>` for an empty map. */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const map = record(labels)
  const keys = Object.keys(map).sort()
  if (keys.length === 0) return '<none>'
  return keys.map((k) => `${k}=${map[k]}`).join(',')
}

export interface LabelSelectorRequirement {
  key: string
  operator: string
  values?: string[]
}

export interface LabelSelector {
  matchLabels?: Record<string, string>
  matchExpressions?: LabelSelectorRequirement[]
}

/**
 * A metav1.LabelSelector in the selector syntax (`app=web,tier in (a,b),!legacy`), requirements
 * sorted by key. Empty for a missing or match-everything selector; undefined when an operator
 * is not one of the four the API allows.
 */
export function selectorString(selector: LabelSelector | undefined | null): string | undefined {
  if (selector === null || typeof selector !== 'object') return ''
  const parts: Array<{ key: string; text: string }> = []
  for (const [key, value] of Object.entries(record(selector.matchLabels))) {
    parts.push({ key, text: `${key}=${value}` })
  }
  for (const req of list(selector.matchExpressions)) {
    const values = [...list(req.values)].sort().join(',')
    switch (req.operator) {
      case 'In':
        parts.push({ key: req.key, text: `${req.key} in (${values})` })
        break
      case 'NotIn':
        parts.push({ key: req.key, text: `${req.key} notin (${values})` })
        break
      case 'Exists':
        parts.push({ key: req.key, text: req.key })
        break
      case 'DoesNotExist':
        parts.push({ key: req.key, text: `!${req.key}` })
        break
      default:
        return undefined
    }
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return parts.map((p) => p.text).join(',')
}

/** A selector cell for the Selector columns of ReplicaSet, DaemonSet and Job. */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  const text = selectorString(selector)
  if (text === undefined) return '<error>'
  return text === '' ? '<none>' : text
}

export interface ContainerLike {
  name?: string
  image?: string
}

/** The Containers and Images cells: each list joined with commas, in template order. */
export function containerCells(containers: ContainerLike[] | undefined): [string, string] {
  const items = list(containers)
  return [items.map((c) => c.name ?? '').join(','), items.map((c) => c.image ?? '').join(',')]
}

/** `<none>` in place of an empty string, as upstream prints unset optional fields. */
export function orNone(value: string | undefined | null): string {
  return value ? value : '<none>'
}

/** `True`, `False`, or `<unset>` for an optional boolean. */
export function formatOptionalBool(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>'
  return value ? 'True' : 'False'
}

/** A list shown as its first three items, then `+ N more...` for the rest. */
export function firstThree(items: string[], empty: string): string {
  const max = 3
  if (items.length === 0) return empty
  const shown = items.slice(0, max).join(',')
  return items.length > max ? `${shown} + ${items.length - max} more...` : shown
}
