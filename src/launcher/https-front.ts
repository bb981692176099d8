import { request as httpRequest, Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'
import { X509Certificate } from 'node:crypto'
import { clientCertMarkHeader, clientIdentityHeader, encodeClientIdentity } from '../apimachinery/client-identity'
import { HOST } from './host'
import { relayUpgrade } from './relay-upgrade'
import { failure } from '../apimachinery/status'
import { maxRequestBodyBytes } from '../config'

export interface HttpsFrontOptions {
  port: number
  /** the serving certificate and key */
  cert: string
  key: string
  /** the cluster CA client certificates must chain to */
  clientCa: string
  /** where the Worker listens (plain http on HOST) */
  upstreamPort: number
  /** shared with the Worker (EDGEPLANE_CLIENT_CERT_SECRET): marks a verified client certificate's identity */
  secret: string
}

const markHeaders = new Set([clientCertMarkHeader, clientIdentityHeader])

const clientAuth = '1.3.6.1.5.5.7.3.2'
const anyExtendedKeyUsage = '2.5.29.37.0'

/**
 * The client certificate's user and groups when the cluster CA issued it, it is valid now and it
 * may be used for client authentication; undefined for no certificate or any other. The TLS
 * handshake has already proved the client holds its key.
 */
export function verifiedIdentity(cert: X509Certificate | undefined, ca: X509Certificate, nowMs: number): { user: string; groups: string[] } | undefined {
  if (!cert || !cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return undefined
  if (nowMs < Date.parse(cert.validFrom) || nowMs > Date.parse(cert.validTo) || nowMs > Date.parse(ca.validTo)) return undefined
  const usages = cert.keyUsage
  if (usages && !usages.includes(clientAuth) && !usages.includes(anyExtendedKeyUsage)) return undefined
  const user = attributes(cert.subject, 'CN')[0]
  return user ? { user, groups: attributes(cert.subject, 'O') } : undefined
}

/** The values of one attribute type in a subject as Node prints it (`CN=jane\nO=devs\nO=qa`). */
function attributes(subject: string, type: string): string[] {
  return subject.split('\n').filter((l) => l.startsWith(`${type}=`)).map((l) => l.slice(type.length + 1))
}

type Identity = ReturnType<typeof verifiedIdentity>
/** Each connection's certificate is checked once, and again only once it may have expired. */
const checked = new WeakMap<TLSSocket, { identity: Identity; until: number }>()

function socketIdentity(socket: TLSSocket, ca: X509Certificate): Identity {
  const now = Date.now()
  const seen = checked.get(socket)
  if (seen && now <= seen.until) return seen.identity
  const cert = socket.getPeerX509Certificate()
  const identity = verifiedIdentity(cert, ca, now)
  checked.set(socket, { identity, until: identity && cert ? Math.min(Date.parse(cert.validTo), Date.parse(ca.validTo)) : Infinity })
  return identity
}

/** The request's headers as sent, less any identity headers a client made up, plus the verified ones. */
function forwardedHeaders(req: IncomingMessage, ca: X509Certificate, secret: string): [string, string][] {
  const out: [string, string][] = []
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (!markHeaders.has(req.rawHeaders[i]!.toLowerCase())) out.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!])
  }
  const identity = socketIdentity(req.socket as TLSSocket, ca)
  if (identity) out.push([clientCertMarkHeader, secret], [clientIdentityHeader, encodeClientIdentity(identity.user, identity.groups)])
  return out
}

/**
 * The request body goes on as it arrives, up to kube-apiserver's limit: past it the front stops
 * reading and answers 413 itself (the Worker would too, but it closes its side mid-body).
 */
function passBody(req: IncomingMessage, up: ClientRequest, res: ServerResponse): void {
  let size = 0
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size <= maxRequestBodyBytes) {
      if (!up.write(chunk)) req.pause()
      return
    }
    req.pause()
    req.removeAllListeners('data')
    up.destroy()
    if (!res.headersSent) res.writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' })
    res.end(JSON.stringify(failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxRequestBodyBytes}`)))
    lingerThenClose(req)
  })
  up.on('drain', () => req.resume())
  req.on('end', () => up.end())
}

// After a 413, how much more of the body is read and dropped, and for how long, before the connection closes.
const lingerBytes = 4 * 1024 * 1024
const lingerMs = 2_000

/**
 * Reads and drops a bounded amount more of the body, then closes, as Go's server does: closing with
 * unread data resets the connection, and a reset can destroy the 413 before the client reads it.
 */
function lingerThenClose(req: IncomingMessage): void {
  let dropped = 0
  const close = () => {
    clearTimeout(timer)
    req.socket.destroy()
  }
  const timer = setTimeout(close, lingerMs)
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > lingerBytes) close()
  })
  req.on('end', () => {
    clearTimeout(timer)
    req.socket.destroySoon()
  })
  req.resume()
}

/**
 * The local API's https listener: it ends TLS, asks every client for a certificate (not required:
 * token clients send none) and checks it against the cluster CA, then passes each request, and
 * each upgraded connection, to the Worker on its loopback http port with the verified identity.
 */
export function startHttpsFront(opts: HttpsFrontOptions): Promise<Server> {
  const agent = new Agent({ keepAlive: true })
  const ca = new X509Certificate(opts.clientCa)
  // The certificate is checked here rather than by OpenSSL (no `ca` option): a failed signature
  // check there leaves an error behind that ends the connection, where a refused certificate
  // should get the Worker's 401 as with no certificate at all.
  const server = createServer({ cert: opts.cert, key: opts.key, requestCert: true, rejectUnauthorized: false }, (req: IncomingMessage, res: ServerResponse) => {
    const headers = forwardedHeaders(req, ca, opts.secret).flat() as unknown as IncomingHttpHeaders
    // Reads reuse idle connections, and are sent again on a new one if a reused connection turns
    // out to have been closed by the Worker's side; a write always gets a connection of its own.
    const bodiless = req.method === 'GET' || req.method === 'HEAD'
    const send = (retry: boolean) => {
      const up = httpRequest({ host: HOST, port: opts.upstreamPort, method: req.method, path: req.url, headers, agent: bodiless && retry ? agent : false }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders)
        res.flushHeaders()
        upRes.pipe(res)
      })
      up.on('error', (err) => {
        if (retry && up.reusedSocket && !res.headersSent) return send(false)
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
        res.end(`502 Bad Gateway: ${err.message}\n`)
      })
      res.on('close', () => up.destroy())
      if (bodiless) up.end()
      else passBody(req, up, res)
    }
    send(true)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`, ...forwardedHeaders(req, ca, opts.secret).map(([k, v]) => `${k}: ${v}`), '', '']
    relayUpgrade(socket, head, lines.join('\r\n'), (connected) => connect({ host: HOST, port: opts.upstreamPort }, connected))
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: HOST, port: opts.port, exclusive: true }, () => resolve(server))
  })
}
