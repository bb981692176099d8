/**
 * JSON merge patch (RFC 7386), the `application/merge-patch+json` body of `kubectl label`,
 * `annotate`, `scale`, `patch --type=merge` and of client-side apply on custom resources:
 * objects merge key by key, `null` deletes a key, and every other value (arrays included)
 * replaces what was there.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return merge(structuredClone(target), patch)
}

function merge(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return fresh(patch)
  const result = isObject(target) ? target : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else setKey(result, key, merge(Object.hasOwn(result, key) ? result[key] : undefined, value))
  }
  return result
}

/**
 * A patch value placed where nothing is merged into it. Objects lose their null members (merging
 * into nothing deletes nothing), and so do objects inside arrays, as evanphx/json-patch (the
 * apiserver's implementation) prunes them too.
 */
function fresh(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map((item) => (isObject(item) ? merge({}, item) : fresh(item)))
  if (isObject(value)) return merge({}, value)
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Assigns without letting a `__proto__` member of a parsed body reach the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  else obj[key] = value
}
