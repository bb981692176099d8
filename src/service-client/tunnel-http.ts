import type { ServiceBindings } from './bindings'
import { gatewayFor, streamUrl } from '../../durable-objects/node-gateway/client'
import { maxPayloadBytes } from '../agent-protocol/data-frames'

/** A pod port reached through its node's tunnel. */
export interface PodTarget {
  node: string
  podUid: string
  namespace: string
  pod: string
  port: number
}

export type TunnelHttpResult =
  | { ok: true; response: Response }
  /** `unreachable`: the node has no tunnel (another endpoint may do); otherwise the agent's dial error */
  | { ok: false; unreachable: boolean; message: string }

/** Per-request limit for the response head to come back. */
export const defaultHeadTimeoutMs = 30_000

/** Headers that belong to one hop (RFC 9110 §7.6.1) are not passed on, nor the Host (see `host`). */
const dropped = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
])

export interface TunnelHttpOptions {
  /** the Host the pod sees */
  host?: string
  timeoutMs?: number
  extraHeaders?: Array<[string, string]>
  /**
   * Drop the caller's Authorization header: the API proxies do (it holds the caller's API
   * credentials, consumed by authentication as kube-apiserver does); the edge passes it to the app.
   */
  dropAuthorization?: boolean
  /** speak TLS to the pod, checking its certificate (admission webhooks behind a Service) */
  tls?: { serverName: string; ca?: string }
}

export function isWebSocketUpgrade(req: Request): boolean {
  return req.method === 'GET' && req.headers.get('Upgrade')?.toLowerCase() === 'websocket'
}

function passedHeaders(req: Request, opts: TunnelHttpOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = []
  for (const [name, value] of req.headers) {
    const key = name.toLowerCase()
    // x-edgeplane-* marks (ingress, client certificates) carry secrets shared with the launcher only.
    if (
      !dropped.has(key) &&
      !key.startsWith('x-edgeplane-') &&
      !(opts.dropAuthorization && key === 'authorization')
    )
      headers.push([name, value])
  }
  if (opts.host) headers.push(['Host', opts.host])
  headers.push(...(opts.extraHeaders ?? []))
  return headers
}

/**
 * A WebSocket upgrade: the client's socket is handed to the node's gateway, which relays its
 * messages to the agent's own WebSocket to the pod. A node without a tunnel answers 503.
 */
async function websocketThroughNode(
  env: ServiceBindings,
  target: PodTarget,
  req: Request,
  path: string,
  opts: TunnelHttpOptions,
): Promise<TunnelHttpResult> {
  const open = {
    op: 'websocket' as const,
    podUid: target.podUid,
    namespace: target.namespace,
    pod: target.pod,
    port: target.port,
    method: 'GET',
    path,
    headers: passedHeaders(req, opts),
  }
  const res = await gatewayFor(env, target.node).fetch(
    new Request(streamUrl(target.node, open), { headers: req.headers }),
  )
  if (res.status === 503)
    return { ok: false, unreachable: true, message: `node "${target.node}" has no connected agent` }
  return { ok: true, response: res }
}

const headChannel = 3
const bodyChannel = 1

/**
 * Sends one HTTP request to a pod's port through its node's gateway and agent, and answers with
 * the pod's response, its body streamed as it arrives. `host` is the Host the pod sees.
 */
export async function fetchThroughNode(
  env: ServiceBindings,
  target: PodTarget,
  req: Request,
  path: string,
  opts: TunnelHttpOptions = {},
): Promise<TunnelHttpResult> {
  if (isWebSocketUpgrade(req)) return websocketThroughNode(env, target, req, path, opts)
  const headers = passedHeaders(req, opts)
  const open = {
    op: 'http' as const,
    podUid: target.podUid,
    namespace: target.namespace,
    pod: target.pod,
    port: target.port,
    method: req.method,
    path,
    headers,
    ...(opts.tls ? { tls: opts.tls } : {}),
  }
  const upstream = await gatewayFor(env, target.node).fetch(streamUrl(target.node, open), {
    headers: { Upgrade: 'websocket' },
  })
  const ws = upstream.webSocket
  if (!ws)
    return { ok: false, unreachable: true, message: `node "${target.node}" has no connected agent` }
  ws.binaryType = 'arraybuffer'
  ws.accept()

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  let settle: (r: TunnelHttpResult) => void = () => {}
  const result = new Promise<TunnelHttpResult>((resolve) => (settle = resolve))
  let headSeen = false
  let closed = false
  const timer = setTimeout(
    () => fail('timed out waiting for the response'),
    opts.timeoutMs ?? defaultHeadTimeoutMs,
  )
  const close = () => {
    if (closed) return
    closed = true
    clearTimeout(timer)
    try {
      ws.close(1000, 'done')
    } catch {
      /* already closed */
    }
  }
  function fail(message: string) {
    if (!headSeen) settle({ ok: false, unreachable: false, message })
    else writer.abort(new Error(message)).catch(() => {})
    close()
  }
  ws.addEventListener('message', (event) => {
    if (typeof event.data === 'string') {
      const error = endError(event.data)
      if (error !== undefined) return fail(error)
      writer.close().catch(() => {})
      return close()
    }
    const bytes = new Uint8Array(event.data as ArrayBuffer)
    if (bytes.byteLength === 0) return
    if (bytes[0] === headChannel && !headSeen) {
      headSeen = true
      clearTimeout(timer)
      const head = JSON.parse(new TextDecoder().decode(bytes.subarray(1))) as {
        status: number
        statusText?: string
        headers: Array<[string, string]>
      }
      const out = new Headers()
      for (const [name, value] of head.headers) out.append(name, value)
      const nullBody = head.status === 204 || head.status === 304 || req.method === 'HEAD'
      settle({
        ok: true,
        response: new Response(nullBody ? null : readable, {
          status: head.status,
          statusText: head.statusText,
          headers: out,
        }),
      })
    } else if (bytes[0] === bodyChannel && bytes.byteLength > 1)
      writer.write(bytes.slice(1)).catch(close)
  })
  ws.addEventListener('close', () => fail('the node closed the stream'))
  ws.addEventListener('error', () => fail('the node stream failed'))
  void sendBody(ws, req.body)
  return result
}

/** The request body as channel-0 frames, then channel 255 (its end). */
async function sendBody(ws: WebSocket, body: ReadableStream<Uint8Array> | null): Promise<void> {
  try {
    if (body) {
      for await (const chunk of body) {
        for (let at = 0; at < chunk.byteLength; at += maxPayloadBytes) {
          const piece = chunk.subarray(at, at + maxPayloadBytes)
          const frame = new Uint8Array(piece.byteLength + 1)
          frame.set(piece, 1)
          ws.send(frame)
        }
      }
    }
    ws.send(Uint8Array.of(255, 0))
  } catch {
    /* the stream ended first */
  }
}

function endError(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { error?: unknown }
    return typeof v.error === 'string' ? v.error : undefined
  } catch {
    return undefined
  }
}
