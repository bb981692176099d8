export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Polls until `ready` resolves true. Fails when the process it waits for has exited, or after the
 * timeout, with the last reason and the process's output.
 */
export async function waitUntil(
  what: string,
  ready: () => Promise<boolean>,
  opts: { timeoutMs: number; exited: () => boolean; output: () => string },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs
  let last = 'no answer yet'
  for (;;) {
    if (opts.exited())
      throw new Error(`${what} exited before it was ready. Its output:\n${opts.output()}`)
    try {
      if (await ready()) return
      last = 'not ready'
    } catch (err) {
      last = err instanceof Error ? err.message : String(err)
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what} was not ready within ${opts.timeoutMs} ms (last: ${last}). Its output:\n${opts.output()}`,
      )
    await sleep(100)
  }
}
