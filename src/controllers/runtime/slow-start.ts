/**
 * Runs calls in batches of 1, 2, 4, … and stops at the first batch with a failure, as upstream's
 * slowStartBatch: a create that fails (quota, a bad template) costs one call, not hundreds, while
 * healthy creates soon run many at a time. Each call is told its batch's ordinal (0, 1, …); the calls
 * of a batch all begin in one turn, before any of them resumes from an await. Returns how many calls succeeded;
 * rethrows the first error.
 */
export async function slowStart<T>(
  items: T[],
  call: (item: T, batch: number) => Promise<void>,
  initialBatch = 1,
): Promise<number> {
  let done = 0
  let size = initialBatch
  for (let ordinal = 0; done < items.length; ordinal++) {
    const batch = items.slice(done, done + size)
    const results = await Promise.allSettled(batch.map((item) => call(item, ordinal)))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    done += results.filter((r) => r.status === 'fulfilled').length
    if (failed) throw failed.reason
    size *= 2
  }
  return done
}
