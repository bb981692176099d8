/**
 * How deeply a decoded document may nest objects and arrays. Every body the API decodes (JSON,
 * YAML, protobuf; objects and patches alike) and every patch result is held to it, so the
 * recursive code behind the decoders (admission, pruning, patching, managedFields, the store's
 * RPC) never meets a document deep enough to exhaust its stack.
 *
 * 100 levels: the deepest real documents, CRDs whose schemas embed a pod template, nest about 30;
 * kube-apiserver's CBOR decoder stops at 64. A document of 2,000 levels already exhausts the stack
 * of the Worker's recursive code.
 */
export const maxNestingDepth = 100

/** The refusal's message, the same for every decoder. */
export const tooDeeplyNestedMessage = `the document is nested too deeply: more than ${maxNestingDepth} levels of objects and arrays`

/**
 * An object's `metadata.managedFields` mirror its fields five levels deeper (metadata,
 * managedFields, the entry, fieldsV1, and the `{}` of each leaf): they get those levels on top, so
 * an object the server wrote can be written back as it was read.
 */
const managedFieldsLevels = 5

/**
 * Whether a decoded value nests objects and arrays more than `max` levels (a scalar is level 0,
 * `{}` and `[]` level 1). Walked without recursion, and stops at the first path too deep.
 */
export function nestedDeeperThan(value: unknown, max = maxNestingDepth): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [v, depth] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (depth + 1 > max) return true
    for (const [key, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      if (child === null || typeof child !== 'object') continue
      const managedFields = depth === 1 && key === 'managedFields' && v === metadataOf(value)
      stack.push([child, depth + 1 - (managedFields ? managedFieldsLevels : 0)])
    }
  }
  return false
}

const metadataOf = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as { metadata?: unknown }).metadata
    : undefined

/** A RangeError from a recursion that ran out of stack (V8: "Maximum call stack size exceeded"). */
export function isStackExhaustion(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message)
}
