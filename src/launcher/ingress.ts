import { createServer, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect as tlsConnect } from 'node:tls'
import type { Duplex } from 'node:stream'
import { ingressMarkHeader } from '../apimachinery/ingress-mark'
import { HOST } from './host'
import { peerAddress } from './peer-address'
import { relayUpgrade } from './relay-upgrade'

/**
 * Headers saying who the client is, which a client may not say for itself: the listener drops
 * them, and says the socket's peer in `cf-connecting-ip`, as Cloudflare's edge does in production.
 * The Worker takes the client's address from that header alone.
 */
const clientAddressHeaders = new Set([
  'cf-connecting-ip',
  'x-forwarded-for',
  'x-real-ip',
  'forwarded',
  'true-client-ip',
  ingressMarkHeader,
])

/** The raw headers passed to the Worker: the client's, less the ones above, then the peer's address and the mark. */
export function passedHeaders(
  rawHeaders: readonly string[],
  peer: string,
  secret: string,
): string[] {
  const out: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!clientAddressHeaders.has(rawHeaders[i]!.toLowerCase()))
      out.push(rawHeaders[i]!, rawHeaders[i + 1]!)
  }
  if (peer) out.push('cf-connecting-ip', peer)
  out.push(ingressMarkHeader, secret)
  return out
}

export interface IngressListenerOptions {
  port: number
  /** the Worker's https port on HOST, and the CA its certificate chains to */
  apiPort: number
  ca: string
  /** shared with the Worker (EDGEPLANE_INGRESS_SECRET): marks what this listener passes on */
  secret: string
}

/**
 * The local edge: plain http on its own port, passed to the Worker as ingress traffic (marked with
 * the shared secret so the API port cannot be used to pose as it), WebSocket upgrades included,
 * with the client's address taken from the socket (see passedHeaders).
 */
export function startIngressListener(opts: IngressListenerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const headers = passedHeaders(
      req.rawHeaders,
      peerAddress(req.socket.remoteAddress),
      opts.secret,
    )
    const up = httpsRequest(
      {
        host: HOST,
        port: opts.apiPort,
        method: req.method,
        path: req.url,
        headers,
        ca: opts.ca,
        agent: false,
        servername: 'localhost',
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders)
        upRes.pipe(res)
      },
    )
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end(`502 Bad Gateway: ${err.message}\n`)
    })
    req.pipe(up)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`]
    const headers = passedHeaders(
      req.rawHeaders,
      peerAddress(req.socket.remoteAddress),
      opts.secret,
    )
    for (let i = 0; i + 1 < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`)
    lines.push('', '')
    relayUpgrade(socket, head, lines.join('\r\n'), (connected) =>
      tlsConnect({ host: HOST, port: opts.apiPort, ca: opts.ca }, connected),
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: HOST, port: opts.port, exclusive: true }, () => resolve(server))
  })
}
