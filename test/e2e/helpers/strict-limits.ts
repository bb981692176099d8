import type { HttpsRequestOptions, HttpsResult } from './https'

/** What is read of a running server: its /metrics (with the admin token) and its log. */
interface RunningServer {
  token: string
  request(path: string, opts?: Partial<HttpsRequestOptions>): Promise<HttpsResult>
  output(): string
}

/**
 * The production limits passed while the server ran (strict-limits mode), read from GET /metrics
 * and the log before it stops: a description of each, or undefined when there were none (or the
 * server no longer answers, as after a test killed it).
 */
export async function assertWithinLimits(server: RunningServer): Promise<string | undefined> {
  let body: string
  try {
    const res = await server.request('/metrics', { token: server.token, timeoutMs: 10_000 })
    if (res.status !== 200) return undefined
    body = res.body
  } catch {
    return undefined
  }
  const passed = body
    .split('\n')
    .filter((l) => l.startsWith('edgeplane_strict_limit_exceeded_total{') && !l.endsWith(' 0'))
  if (!passed.length) return undefined
  const logged = server
    .output()
    .split('\n')
    .filter((l) => l.includes('strict limits:'))
  return `the server passed production limits:\n${passed.join('\n')}\n${logged.slice(-20).join('\n')}`
}
