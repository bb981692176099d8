import {
  Agent,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http'
import { Agent as TlsAgent, request as tlsRequest } from 'node:https'
import { checkServerIdentity } from 'node:tls'
import type { ContainerRuntime } from '../runtime/types'
import type { End, HttpOpen } from '../../agent-protocol/tunnel-messages'
import type { StreamOutput } from '../stream-output'
import { Channel, type DataFrame } from '../../agent-protocol/data-frames'
import { dialError } from '../portforward/session'

/** Connections to pods are kept open between requests, as a proxy in front of a server would. */
const keepAlive = new Agent({ keepAlive: true, maxFreeSockets: 16 })
const tlsKeepAlive = new TlsAgent({ keepAlive: true, maxFreeSockets: 16 })

/** Headers that belong to one hop, never passed on (RFC 9110 §7.6.1). */
export const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
])

/**
 * One HTTP request to a pod's port on this node, for the API server's proxies and the edge's
 * Ingress: the request body arrives on channel 0 (ended by 255), the response head goes back on
 * channel 3 and its body on channel 1, with the socket paused while the tunnel is congested.
 */
export function serveHttp(runtime: ContainerRuntime, msg: HttpOpen, out: StreamOutput) {
  const hosts = runtime.portHosts?.(msg.podUid)
  let req: ClientRequest | undefined
  let res: IncomingMessage | undefined
  let done = false
  const finish = (end: Omit<End, 'op' | 'id'>) => {
    if (done) return
    done = true
    out.end(end)
  }
  if (!runtime.portHosts)
    finish({ error: 'this node runs simulated containers, which listen on no ports' })
  else if (!hosts?.length) finish({ error: `pod not found ("${msg.pod}_${msg.namespace}")` })
  else {
    const host = hosts[0]!
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of msg.headers) {
      const key = name.toLowerCase()
      if (hopByHop.has(key)) continue
      const had = headers[key]
      // One Host; other repeated headers keep every value.
      headers[key] =
        had === undefined || key === 'host' ? value : [...(Array.isArray(had) ? had : [had]), value]
    }
    // The pod sees the address it was reached at, unless the caller named a Host (Ingress).
    headers.host ??= host.includes(':') ? `[${host}]:${msg.port}` : `${host}:${msg.port}`
    try {
      const options: RequestOptions = {
        host,
        port: msg.port,
        method: msg.method,
        path: msg.path,
        headers,
        setHost: false,
      }
      req = msg.tls
        ? tlsRequest({
            ...options,
            agent: tlsKeepAlive,
            servername: msg.tls.serverName,
            ca: msg.tls.ca,
            checkServerIdentity: serverIdentity(msg.tls.serverName),
          })
        : request({ ...options, agent: keepAlive })
    } catch (err) {
      // Refused by node:http before any I/O (an invalid method, path or header).
      finish({ error: err instanceof Error ? err.message : String(err) })
      return { cancel: () => {}, input: () => {} }
    }
    req.on('response', (r) => {
      res = r
      const head: Array<[string, string]> = []
      for (let i = 0; i + 1 < r.rawHeaders.length; i += 2) {
        if (!hopByHop.has(r.rawHeaders[i]!.toLowerCase()))
          head.push([r.rawHeaders[i]!, r.rawHeaders[i + 1]!])
      }
      out.data(
        Channel.head,
        new TextEncoder().encode(
          JSON.stringify({
            status: r.statusCode ?? 502,
            statusText: r.statusMessage ?? '',
            headers: head,
          }),
        ),
      )
      r.on('data', (chunk: Buffer) => {
        if (done) return
        out.data(Channel.stdout, chunk)
        if (out.congested()) {
          r.pause()
          void out.drained().then(() => r.resume())
        }
      })
      r.on('end', () => finish({}))
      r.on('error', (err) => finish({ error: err.message }))
    })
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ error: res ? err.message : dialError(host, msg.port, err) }),
    )
  }
  return {
    cancel: () => {
      done = true
      req?.destroy()
    },
    input: (frame: DataFrame) => {
      if (!req || done) return
      if (frame.channel === Channel.stdin) req.write(frame.payload.slice())
      else if (frame.channel === Channel.close) req.end()
    },
  }
}

/** The certificate must name the service (`<svc>.<ns>.svc`), whatever address the pod was dialled at. */
function serverIdentity(serverName: string) {
  return (_host: string, cert: Parameters<typeof checkServerIdentity>[1]) =>
    checkServerIdentity(serverName, cert)
}
