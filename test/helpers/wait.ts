export interface WaitOptions {
  /** Shown in the failure message: "timed out after N ms waiting for <what>". */
  what: string
  /** default 10 s */
  timeoutMs?: number
  /** the longest pause between attempts (default 100 ms); the first pauses are shorter (10, 20, 40 … ms) */
  intervalMs?: number
}

/**
 * Polls `fn` until it returns a value other than undefined, null or false, and returns that
 * value. Throws from `fn` count as "not yet", and the last one is named if time runs out. Each
 * call is also bounded by the time left, so a hanging call cannot outlive the timeout. Uses only
 * timers: it runs in Node and inside workerd alike.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  opts: WaitOptions,
): Promise<Exclude<T, undefined | null | false>> {
  const timeoutMs = opts.timeoutMs ?? 10_000
  const longest = opts.intervalMs ?? 100
  const deadline = Date.now() + timeoutMs
  let pause = Math.min(10, longest)
  let last = 'no attempt finished'
  for (;;) {
    const left = deadline - Date.now()
    try {
      const value = await withinMs(Promise.resolve().then(fn), Math.max(left, 1))
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, undefined | null | false>
      last = `last value: ${String(value)}`
    } catch (err) {
      last =
        err instanceof TimedOut
          ? 'the last attempt was still running'
          : `last error: ${err instanceof Error ? err.message : String(err)}`
    }
    if (Date.now() + pause > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what} (${last})`)
    await sleep(pause)
    pause = Math.min(pause * 2, longest)
  }
}

class TimedOut extends Error {}

function withinMs<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), ms)
  })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
