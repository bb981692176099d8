/**
 * A set of field paths, shaped as structured-merge-diff's fieldpath.Set: at each node, the path
 * elements that are members themselves and the children below some of them. Path elements are kept
 * in their FieldsV1 spelling: `f:name`, `k:{"name":"x"}`, `v:"value"`, `i:0`.
 */
export type PathElement = string
export type Path = readonly PathElement[]

/** FieldsV1: every element maps to its children; `.` marks an element that is itself a member. */
export type FieldsV1 = { [pe: string]: FieldsV1 }

export class FieldSet {
  readonly members = new Set<PathElement>()
  readonly children = new Map<PathElement, FieldSet>()

  static of(paths: Iterable<Path>): FieldSet {
    const s = new FieldSet()
    for (const p of paths) s.insert(p)
    return s
  }

  insert(path: Path): void {
    if (path.length === 0) return
    let node: FieldSet = this
    for (let i = 0; i < path.length - 1; i++) node = node.child(path[i]!)
    node.members.add(path[path.length - 1]!)
  }

  has(path: Path): boolean {
    const node = this.nodeAt(path.slice(0, -1))
    return node !== undefined && path.length > 0 && node.members.has(path[path.length - 1]!)
  }

  /** True when the path, or anything below it, is in the set. */
  touches(path: Path): boolean {
    if (this.has(path)) return true
    const node = this.nodeAt(path)
    return node !== undefined && !node.empty()
  }

  empty(): boolean {
    if (this.members.size) return false
    for (const c of this.children.values()) if (!c.empty()) return false
    return true
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone()
    out.addAll(other)
    return out
  }

  difference(other: FieldSet): FieldSet {
    const out = new FieldSet()
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m)
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe)
      const d = o ? c.difference(o) : c.clone()
      if (!d.empty()) out.children.set(pe, d)
    }
    return out
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet()
    for (const m of this.members) if (other.members.has(m)) out.members.add(m)
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe)
      if (!o) continue
      const i = c.intersection(o)
      if (!i.empty()) out.children.set(pe, i)
    }
    return out
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).empty() && other.difference(this).empty()
  }

  /** Every member path, in FieldsV1 order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = []
    for (const pe of sortElements(new Set([...this.members, ...this.children.keys()]))) {
      if (this.members.has(pe)) out.push([...prefix, pe])
      const c = this.children.get(pe)
      if (c) out.push(...c.paths([...prefix, pe]))
    }
    return out
  }

  toFieldsV1(): FieldsV1 {
    const out: FieldsV1 = {}
    for (const pe of sortElements(new Set([...this.members, ...this.children.keys()]))) {
      const c = this.children.get(pe)
      if (c && !c.empty()) {
        const inner = c.toFieldsV1()
        out[pe] = this.members.has(pe) ? { '.': {}, ...inner } : inner
      } else if (this.members.has(pe)) out[pe] = {}
    }
    return out
  }

  static fromFieldsV1(v: unknown): FieldSet {
    const s = new FieldSet()
    if (!v || typeof v !== 'object' || Array.isArray(v)) return s
    for (const [pe, inner] of Object.entries(v as Record<string, unknown>)) {
      if (pe === '.') continue
      const keys = inner && typeof inner === 'object' ? Object.keys(inner) : []
      if (keys.length === 0 || keys.includes('.')) s.members.add(pe)
      const c = FieldSet.fromFieldsV1(inner)
      if (!c.empty()) s.children.set(pe, c)
    }
    return s
  }

  private child(pe: PathElement): FieldSet {
    let c = this.children.get(pe)
    if (!c) this.children.set(pe, (c = new FieldSet()))
    return c
  }

  private nodeAt(path: Path): FieldSet | undefined {
    let node: FieldSet | undefined = this
    for (const pe of path) {
      node = node.children.get(pe)
      if (!node) return undefined
    }
    return node
  }

  private clone(): FieldSet {
    const out = new FieldSet()
    out.addAll(this)
    return out
  }

  private addAll(other: FieldSet): void {
    for (const m of other.members) this.members.add(m)
    for (const [pe, c] of other.children) this.child(pe).addAll(c)
  }
}

const kindOrder: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 }

/** Upstream's element order: field names, then keys, then values, then indexes, each sorted. */
function sortElements(pes: Set<PathElement>): PathElement[] {
  return [...pes].sort((a, b) => {
    const ka = kindOrder[a[0]!] ?? 4
    const kb = kindOrder[b[0]!] ?? 4
    if (ka !== kb) return ka - kb
    if (a[0] === 'i' && b[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2))
    return a < b ? -1 : a > b ? 1 : 0
  })
}

/** A field name element. */
export const fieldElement = (name: string): PathElement => `f:${name}`

/** A list-map item element: its key fields, sorted by name, as compact JSON. */
export function keyElement(key: Record<string, unknown>): PathElement {
  const sorted: Record<string, unknown> = {}
  for (const k of Object.keys(key).sort()) sorted[k] = key[k]
  return `k:${JSON.stringify(sorted)}`
}

/** A set item element. */
export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`

/** A path as upstream prints it in conflicts, e.g. `.spec.template.spec.containers[name="nginx"].image`. */
export function pathString(path: Path): string {
  return path
    .map((pe) => {
      const body = pe.slice(2)
      if (pe.startsWith('f:')) return `.${body}`
      if (pe.startsWith('v:')) return `[=${body}]`
      if (pe.startsWith('i:')) return `[${body}]`
      if (pe.startsWith('k:')) {
        const key = JSON.parse(body) as Record<string, unknown>
        return `[${Object.entries(key)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`
      }
      return pe
    })
    .join('')
}
