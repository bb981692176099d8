import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

export interface HttpResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

export interface HttpClientOptions {
  /** PEM the server certificate must chain to (https only). */
  ca?: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  /** Keep-alive connections kept open; a closed-loop run with c in flight needs c. */
  connections: number
  /** A request without a complete response after this long fails, so no load loop can hang. */
  timeoutMs?: number
}

/**
 * One keep-alive connection pool to one origin, for every load loop: the API server, the floor
 * Worker and etcd's HTTP gateway are all driven through this same client.
 */
export class HttpClient {
  private readonly agent: HttpAgent
  private readonly secure: boolean
  private readonly timeoutMs: number

  constructor(
    readonly origin: string,
    private readonly opts: HttpClientOptions,
  ) {
    this.secure = origin.startsWith('https:')
    const agentOptions = {
      keepAlive: true,
      maxSockets: opts.connections,
      maxFreeSockets: opts.connections,
      scheduling: 'fifo' as const,
    }
    this.agent = this.secure
      ? new HttpsAgent({ ...agentOptions, ca: opts.ca })
      : new HttpAgent(agentOptions)
    this.timeoutMs = opts.timeoutMs ?? 30_000
  }

  /**
   * One request. A kept-alive connection the server closed just as it was reused fails before any
   * response with ECONNRESET; that request never reached the server, so it is sent again once on a
   * new connection (the retry Node's documentation prescribes for `reusedSocket`).
   */
  request(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<HttpResponse> {
    return this.send(method, path, body, headers).catch(
      (err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
        if (err.reusedSocket && err.code === 'ECONNRESET')
          return this.send(method, path, body, headers)
        throw err
      },
    )
  }

  private send(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<HttpResponse> {
    const h: Record<string, string> = { accept: 'application/json', ...headers }
    if (this.opts.token !== undefined) h.authorization = `Bearer ${this.opts.token}`
    if (body !== undefined) {
      h['content-type'] ??= 'application/json'
      h['content-length'] = String(Buffer.byteLength(body))
    }
    const send = this.secure ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const req = send(this.origin + path, { method, headers: h, agent: this.agent }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          })
        })
        res.on('error', fail)
      })
      const timer = setTimeout(
        () =>
          req.destroy(
            new Error(`${method} ${path}: no complete response within ${this.timeoutMs} ms`),
          ),
        this.timeoutMs,
      )
      function fail(err: Error) {
        clearTimeout(timer)
        reject(err)
      }
      req.on('error', (err) => fail(Object.assign(err, { reusedSocket: req.reusedSocket })))
      req.end(body)
    })
  }

  /** Like request(), but a status outside 2xx is an error carrying the start of the body. */
  async expectOk(method: string, path: string, body?: string): Promise<HttpResponse> {
    const res = await this.request(method, path, body)
    if (res.status < 200 || res.status > 299)
      throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`)
    return res
  }

  close(): void {
    this.agent.destroy()
  }
}
