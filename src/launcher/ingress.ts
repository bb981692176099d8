import { createServer, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect as tlsConnect } from 'node:tls'
import type { Duplex } from 'node:stream'
import { HOST } from './host'
import { relayUpgrade } from './relay-upgrade'

/** The header the Worker recognises ingress traffic by (see src/edge/serve-ingress.ts). */
const markHeader = 'x-edgeplane-ingress'

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
 * the shared secret so the API port cannot be used to pose as it), WebSocket upgrades included.
 */
export function startIngressListener(opts: IngressListenerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const headers = { ...req.headers, [markHeader]: opts.secret }
    const up = httpsRequest({ host: HOST, port: opts.apiPort, method: req.method, path: req.url, headers, ca: opts.ca, agent: false, servername: 'localhost' }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders)
      upRes.pipe(res)
    })
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end(`502 Bad Gateway: ${err.message}\n`)
    })
    req.pipe(up)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`]
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() !== markHeader) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
    }
    lines.push(`${markHeader}: ${opts.secret}`, '', '')
    relayUpgrade(socket, head, lines.join('\r\n'), (connected) => tlsConnect({ host: HOST, port: opts.apiPort, ca: opts.ca }, connected))
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: HOST, port: opts.port, exclusive: true }, () => resolve(server))
  })
}
