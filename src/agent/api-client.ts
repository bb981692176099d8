import { Agent, request } from 'node:https'
import { request as httpRequest, Agent as HttpAgent } from 'node:http'
import WebSocket from 'ws'
import type { KubeObject, Status } from '../apimachinery/types'
import type { ClusterAccess } from './kubeconfig'

/** A request the server answered with a Kubernetes Status (or at least a non-2xx code). */
export class ApiStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: Status,
  ) {
    super(message)
  }
}

export const isNotFound = (err: unknown): boolean =>
  err instanceof ApiStatusError && err.code === 404
export const isConflict = (err: unknown): boolean =>
  err instanceof ApiStatusError && err.code === 409
export const isAlreadyExists = (err: unknown): boolean =>
  err instanceof ApiStatusError && err.code === 409 && err.reason === 'AlreadyExists'

export interface KubeList<T = KubeObject> {
  kind?: string
  apiVersion?: string
  metadata: { resourceVersion?: string; continue?: string }
  items: T[]
}

export interface RequestOptions {
  body?: unknown
  contentType?: string
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 30_000

/**
 * JSON over https to the API server with the kubeconfig's CA and credentials. One keep-alive
 * agent per client, so a simulated cluster of many nodes shares a bounded set of connections.
 */
export class ApiClient {
  private readonly agent: Agent | HttpAgent
  private readonly secure: boolean
  private readonly userAgent: string

  constructor(
    readonly access: ClusterAccess,
    opts: { maxSockets?: number; userAgent?: string } = {},
  ) {
    this.secure = access.server.startsWith('https:')
    const common = { keepAlive: true, maxSockets: opts.maxSockets ?? 16 }
    this.agent = this.secure ? new Agent({ ...common, ...this.tls() }) : new HttpAgent(common)
    this.userAgent = opts.userAgent ?? 'edgeplane-agent'
  }

  private tls(): { ca?: string; rejectUnauthorized?: boolean; cert?: string; key?: string } {
    const out: { ca?: string; rejectUnauthorized?: boolean; cert?: string; key?: string } = {}
    if (this.access.ca) out.ca = this.access.ca
    if (this.access.insecureSkipTlsVerify) out.rejectUnauthorized = false
    if (this.access.clientCert && this.access.clientKey) {
      out.cert = this.access.clientCert
      out.key = this.access.clientKey
    }
    return out
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': this.userAgent,
      ...extra,
    }
    if (this.access.token) h.Authorization = `Bearer ${this.access.token}`
    return h
  }

  /** Sends one request; 2xx bodies are parsed as JSON, anything else becomes an ApiStatusError. */
  request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body)
    const extra: Record<string, string> = {}
    if (body !== undefined) {
      extra['Content-Type'] = opts.contentType ?? 'application/json'
      extra['Content-Length'] = String(Buffer.byteLength(body))
    }
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const send = this.secure ? request : httpRequest
    return new Promise<T>((resolve, reject) => {
      const req = send(
        this.access.server + path,
        { method, agent: this.agent, headers: this.headers(extra), timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('error', reject)
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            const code = res.statusCode ?? 0
            if (code >= 200 && code < 300) {
              try {
                resolve((text === '' ? undefined : JSON.parse(text)) as T)
              } catch {
                reject(
                  new ApiStatusError(
                    code,
                    'InternalError',
                    `${method} ${path}: the server answered ${code} with a body that is not JSON`,
                  ),
                )
              }
              return
            }
            reject(statusError(method, path, code, text))
          })
        },
      )
      req.on('timeout', () =>
        req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
      )
      req.on('error', reject)
      req.end(body)
    })
  }

  get<T = KubeObject>(path: string): Promise<T> {
    return this.request<T>('GET', path)
  }

  /** GET that answers undefined for 404 instead of failing. */
  async getOptional<T = KubeObject>(path: string): Promise<T | undefined> {
    try {
      return await this.get<T>(path)
    } catch (err) {
      if (isNotFound(err)) return undefined
      throw err
    }
  }

  create<T = KubeObject>(path: string, object: unknown): Promise<T> {
    return this.request<T>('POST', path, { body: object })
  }

  update<T = KubeObject>(path: string, object: unknown): Promise<T> {
    return this.request<T>('PUT', path, { body: object })
  }

  mergePatch<T = KubeObject>(path: string, patch: unknown): Promise<T> {
    return this.request<T>('PATCH', path, {
      body: patch,
      contentType: 'application/merge-patch+json',
    })
  }

  delete<T = KubeObject>(path: string, options?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, options === undefined ? {} : { body: options })
  }

  /** Opens a WebSocket watch (`path` carries `watch=true` and its selectors). */
  watchSocket(path: string): WebSocket {
    const url = this.access.server.replace(/^http/, 'ws') + path
    return new WebSocket(url, {
      headers: this.headers(),
      ...this.tls(),
      handshakeTimeout: 15_000,
      perMessageDeflate: false,
    })
  }

  close(): void {
    this.agent.destroy()
  }
}

function statusError(method: string, path: string, code: number, text: string): ApiStatusError {
  try {
    const parsed = JSON.parse(text) as Partial<Status>
    if (parsed && parsed.kind === 'Status') {
      return new ApiStatusError(
        code,
        parsed.reason ?? '',
        parsed.message ?? `${method} ${path}: ${code}`,
        parsed as Status,
      )
    }
  } catch {
    // not JSON: fall through to a message with the start of the body
  }
  const snippet = text.trim().slice(0, 200)
  return new ApiStatusError(
    code,
    code === 401 ? 'Unauthorized' : '',
    `${method} ${path}: the server answered ${code}${snippet ? `: ${snippet}` : ''}`,
  )
}

/** `/api/v1/namespaces/NS/pods/NAME` and friends, with each segment escaped. */
export function resourcePath(opts: {
  group?: string
  version?: string
  namespace?: string
  resource: string
  name?: string
  subresource?: string
}): string {
  const base = opts.group
    ? `/apis/${opts.group}/${opts.version ?? 'v1'}`
    : `/api/${opts.version ?? 'v1'}`
  let path = base
  if (opts.namespace !== undefined) path += `/namespaces/${encodeURIComponent(opts.namespace)}`
  path += `/${opts.resource}`
  if (opts.name !== undefined) path += `/${encodeURIComponent(opts.name)}`
  if (opts.subresource) path += `/${opts.subresource}`
  return path
}
