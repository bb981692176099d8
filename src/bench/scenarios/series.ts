import { runLoad, type LoadOptions } from '../load'
import { cpuMs } from '../proc-stats'
import { progress } from '../progress'
import type { Percentiles } from '../stats'

/** One measured closed-loop series, as it goes into the report. */
export interface SeriesResult {
  perSecond: number
  ok: number
  errors: number
  firstError?: string
  elapsedMs: number
  stoppedBy: 'count' | 'time'
  latency: Percentiles
  /** CPU time per 1,000 successful requests: the server's processes and this client. */
  cpuMsPer1k?: { server: number; client: number }
}

/**
 * Runs a closed-loop series with progress lines and CPU accounting of the server processes
 * (read from /proc before and after) and of this client process.
 */
export async function measuredSeries(
  label: string,
  serverPids: number[],
  opts: Omit<LoadOptions, 'onProgress'>,
): Promise<SeriesResult> {
  const serverCpu = () => serverPids.reduce((sum, pid) => sum + (cpuMs(pid) ?? Number.NaN), 0)
  const cpu0 = serverCpu()
  const client0 = process.cpuUsage()
  const res = await runLoad({
    ...opts,
    onProgress: (done) => progress(`  ${label}: ${done}/${opts.count}`),
  })
  const client = process.cpuUsage(client0)
  const serverMs = serverCpu() - cpu0
  const per1k = (ms: number) => (res.ok ? (ms * 1000) / res.ok : Number.NaN)
  const result: SeriesResult = {
    perSecond: res.perSecond,
    ok: res.ok,
    errors: res.errors,
    firstError: res.firstError,
    elapsedMs: res.elapsedMs,
    stoppedBy: res.stoppedBy,
    latency: res.latency,
    cpuMsPer1k:
      serverPids.length && Number.isFinite(serverMs)
        ? { server: per1k(serverMs), client: per1k((client.user + client.system) / 1000) }
        : undefined,
  }
  const errors = res.errors ? `, ${res.errors} errors (first: ${res.firstError})` : ''
  const bound =
    res.stoppedBy === 'time'
      ? ` — stopped by the ${Math.round(opts.timeLimitMs / 1000)} s bound`
      : ''
  progress(
    `  ${label}: ${res.ok} in ${(res.elapsedMs / 1000).toFixed(1)} s = ${res.perSecond.toFixed(0)}/s, p50 ${res.latency.p50.toFixed(1)} ms, p99 ${res.latency.p99.toFixed(1)} ms${errors}${bound}`,
  )
  return result
}

/** Resolves when the response status is the expected one, throws with the body's start otherwise. */
export function expectStatus(res: { status: number; body: string }, ...want: number[]): void {
  if (!want.includes(res.status)) throw new Error(`status ${res.status}: ${res.body.slice(0, 200)}`)
}
