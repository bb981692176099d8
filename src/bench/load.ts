import { percentiles, type Percentiles } from './stats'

export interface LoadOptions {
  /** Requests in flight at all times (closed loop). */
  concurrency: number
  /** Stop after this many requests have been started... */
  count: number
  /** ...or once this much time has passed, whichever comes first. */
  timeLimitMs: number
  /** Sends request number i and resolves once its response is complete; throws when it failed. */
  request: (i: number) => Promise<void>
  /** Called about every 5 s with the number of finished requests. */
  onProgress?: (done: number) => void
}

export interface LoadResult {
  ok: number
  errors: number
  firstError?: string
  elapsedMs: number
  /** Successful requests per second of wall time. */
  perSecond: number
  stoppedBy: 'count' | 'time'
  latency: Percentiles
  /** Per successful request, in completion order. */
  latenciesMs: Float64Array
}

/**
 * Closed-loop load: `concurrency` workers each send the next request as soon as their previous
 * one completes, so exactly c are in flight until the count or the time bound is reached. Latency
 * is measured per request around the whole exchange, on the client.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(opts.count)
  let ok = 0
  let errors = 0
  let firstError: string | undefined
  let next = 0
  let timedOut = false
  const start = performance.now()
  const deadline = start + opts.timeLimitMs
  let lastDone = start

  const worker = async () => {
    for (;;) {
      if (next >= opts.count) return
      if (performance.now() >= deadline) {
        timedOut = true
        return
      }
      const i = next++
      const t0 = performance.now()
      try {
        await opts.request(i)
        const t1 = performance.now()
        latencies[ok++] = t1 - t0
        lastDone = t1
      } catch (err) {
        errors++
        lastDone = performance.now()
        firstError ??= err instanceof Error ? err.message : String(err)
      }
    }
  }

  const ticker = opts.onProgress
    ? setInterval(() => opts.onProgress!(ok + errors), 5_000)
    : undefined
  ticker?.unref()
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker))
  } finally {
    clearInterval(ticker)
  }
  const elapsedMs = lastDone - start
  const done = latencies.subarray(0, ok)
  return {
    ok,
    errors,
    firstError,
    elapsedMs,
    perSecond: elapsedMs > 0 ? (ok * 1000) / elapsedMs : 0,
    stoppedBy: timedOut ? 'time' : 'count',
    latency: percentiles(done),
    latenciesMs: done,
  }
}
