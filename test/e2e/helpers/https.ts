import { request as httpsRequest } from 'node:https'

export interface HttpsResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface HttpsRequestOptions {
  /** PEM the server certificate must chain to; the request fails on anything else. */
  ca: string
  /** Sent as `Authorization: Bearer <token>` when given. */
  token?: string
  method?: string
  headers?: Record<string, string>
  body?: string
  timeoutMs?: number
}

/** One https request with real certificate verification against the given CA. */
export function httpsRequestText(url: string, opts: HttpsRequestOptions): Promise<HttpsResult> {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: opts.method ?? 'GET', headers, ca: opts.ca, timeout: opts.timeoutMs ?? 5_000 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('timeout', () =>
      req.destroy(new Error(`no response from ${url} within ${opts.timeoutMs ?? 5_000} ms`)),
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}
