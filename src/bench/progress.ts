const started = performance.now()

/** One progress line on stderr, prefixed with the seconds since the bench started. */
export function progress(message: string): void {
  const s = ((performance.now() - started) / 1000).toFixed(1).padStart(6)
  process.stderr.write(`[${s}s] ${message}\n`)
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
