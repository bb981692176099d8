/**
 * A walk over every node of a parsed cel-js expression, macro expansions included: the one place
 * that knows how cel-js keeps its tree (`op`, `args` of nodes, lists and comprehension records,
 * and a macro's expansion in `meta.alternate`).
 */
export interface CelNode {
  op: string
  args: unknown
  readonly meta: { evaluate?: Evaluate; alternate?: CelNode; macro?: { evaluate: Evaluate } }
}

export type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown

const isNode = (v: unknown): v is CelNode =>
  typeof v === 'object' && v !== null && typeof (v as CelNode).op === 'string' && 'args' in v

export function walkNodes(root: unknown, visit: (node: CelNode) => void): void {
  const seen = new Set<unknown>()
  const stack: unknown[] = [root]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v !== 'object' || v === null || seen.has(v)) continue
    seen.add(v)
    if (isNode(v)) {
      visit(v)
      stack.push(v.args, v.meta.alternate)
    } else if (Array.isArray(v)) stack.push(...v)
    else if (Object.getPrototypeOf(v) === Object.prototype) stack.push(...Object.values(v))
  }
}
