/**
 * Runs calls in batches of 1, 2, 4, … and stops at the first batch with a failure, as upstream's
 * slowStartBatch: a create that fails (quota, a bad template) costs one call, not hundreds, while
 * healthy creates soon run many at a time. Returns how many calls succeeded; rethrows the first error.
 */
export async function slowStart<T>(items: T[], call: (item: T) => Promise<void>, initialBatch = 1): Promise<number> {
  let done = 0
  let size = initialBatch
  while (done < items.length) {
    const batch = items.slice(done, done + size)
    const results = await Promise.allSettled(batch.map(call))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    done += results.filter((r) => r.status === 'fulfilled').length
    if (failed) throw failed.reason
    size *= 2
  }
  return done
}
