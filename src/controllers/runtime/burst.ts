/**
 * BurstReplicas: at most this many pod creates or deletes one key makes in a pass, so one sync
 * cannot flood the API; a key with more to do asks to be requeued at once and the next pass
 * continues. Upstream allows 500; here each create costs the pass about two subrequests (the
 * admission's reads and the write), and one key's writes must leave a pass under half the 1,000 an
 * invocation may make (the runner takes no new key past 250 store calls).
 */
export const BURST_REPLICAS = 100

/**
 * The first of `items` whose writes (`cost` each, one by default) fit in `limit`, at least one
 * when the limit is not spent, and whether any were left for a later pass.
 */
export function takeBurst<T>(
  items: readonly T[],
  limit = BURST_REPLICAS,
  cost: (item: T) => number = () => 1,
): { taken: T[]; more: boolean } {
  const taken: T[] = []
  let used = 0
  for (const item of items) {
    const c = cost(item)
    if (limit <= 0 || (taken.length > 0 && used + c > limit)) break
    taken.push(item)
    used += c
  }
  return { taken, more: taken.length < items.length }
}
