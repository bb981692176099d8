import { Agent, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import { connect } from 'node:net'
import type { Duplex } from 'node:stream'
import type { TLSSocket } from 'node:tls'
import { X509Certificate } from 'node:crypto'
import {
  clientCertMarkHeader,
  clientIdentityHeader,
  encodeClientIdentity,
} from '../apimachinery/client-identity'
import { HOST } from './host'
import { relayUpgrade } from './relay-upgrade'
import { clientHeaders } from './front-headers'
import { bodyHeaders, dropRestOfBody, hasBody, overLimitLength, readFrontBody } from './front-body'
import { relay } from './front-relay'

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
  /** the local edge's secret (EDGEPLANE_INGRESS_SECRET): what its listener marks keeps its forwarding headers */
  ingressSecret?: string
}

/** How long the front keeps a client's connection open with no request on it. */
export const frontIdleMs = 5_000

const clientAuth = '1.3.6.1.5.5.7.3.2'
const anyExtendedKeyUsage = '2.5.29.37.0'

/**
 * The client certificate's user and groups when the cluster CA issued it, it is valid now and it
 * may be used for client authentication; undefined for no certificate or any other. The TLS
 * handshake has already proved the client holds its key.
 */
export function verifiedIdentity(
  cert: X509Certificate | undefined,
  ca: X509Certificate,
  nowMs: number,
): { user: string; groups: string[] } | undefined {
  if (!cert || !cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return undefined
  if (
    nowMs < Date.parse(cert.validFrom) ||
    nowMs > Date.parse(cert.validTo) ||
    nowMs > Date.parse(ca.validTo)
  )
    return undefined
  const usages = cert.keyUsage
  if (usages && !usages.includes(clientAuth) && !usages.includes(anyExtendedKeyUsage))
    return undefined
  const user = attributes(cert.subject, 'CN')[0]
  return user ? { user, groups: attributes(cert.subject, 'O') } : undefined
}

/** The values of one attribute type in a subject as Node prints it (`CN=jane\nO=devs\nO=qa`). */
function attributes(subject: string, type: string): string[] {
  return subject
    .split('\n')
    .filter((l) => l.startsWith(`${type}=`))
    .map((l) => l.slice(type.length + 1))
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
  checked.set(socket, {
    identity,
    until: identity && cert ? Math.min(Date.parse(cert.validTo), Date.parse(ca.validTo)) : Infinity,
  })
  return identity
}

/**
 * The request's headers as sent, less those a client may not set (./front-headers: the runtime's
 * own MF-* and cf-*, forwarding and identity headers), plus the verified identity.
 */
function forwardedHeaders(
  req: IncomingMessage,
  ca: X509Certificate,
  opts: HttpsFrontOptions,
): [string, string][] {
  const out = clientHeaders(req.rawHeaders, req.socket.remoteAddress, opts.ingressSecret)
  const identity = socketIdentity(req.socket as TLSSocket, ca)
  if (identity)
    out.push(
      [clientCertMarkHeader, opts.secret],
      [clientIdentityHeader, encodeClientIdentity(identity.user, identity.groups)],
    )
  return out
}

/**
 * The local API's https listener: it ends TLS, asks every client for a certificate (not required:
 * token clients send none) and checks it against the cluster CA, then passes each request, and
 * each upgraded connection, to the Worker on its loopback http port with the verified identity.
 * A request body is read whole first (./front-body): one within the limit goes on complete, and of
 * one over it the Worker gets only the head, answers without reading, and that answer is the
 * client's while the front drops the rest of the body. A GET or HEAD goes on without a body, and
 * one the client sends with it is dropped the same way.
 */
export function startHttpsFront(opts: HttpsFrontOptions): Promise<Server> {
  const upstream = { port: opts.upstreamPort, agent: new Agent({ keepAlive: true }) }
  const ca = new X509Certificate(opts.clientCa)
  const handle = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    const headers = forwardedHeaders(req, ca, opts)
    if (req.method === 'GET' || req.method === 'HEAD')
      return relay(req, res, upstream, headers, {
        kind: 'bodiless',
        drain: hasBody(req) ? dropRestOfBody(req, 0) : undefined,
      })
    void readFrontBody(req, res, expectsContinue).then((read) => {
      if (read.kind === 'gone') return void res.destroy()
      if (read.kind === 'whole')
        return relay(req, res, upstream, bodyHeaders(headers, req, read.body.length), {
          kind: 'body',
          body: read.body,
        })
      relay(req, res, upstream, bodyHeaders(headers, req, overLimitLength(req)), {
        kind: 'over',
        drain: dropRestOfBody(req, read.read),
      })
    })
  }
  // The certificate is checked here rather than by OpenSSL (no `ca` option): a failed signature
  // check there leaves an error behind that ends the connection, where a refused certificate
  // should get the Worker's 401 as with no certificate at all.
  const server = createServer(
    {
      cert: opts.cert,
      key: opts.key,
      requestCert: true,
      rejectUnauthorized: false,
      keepAliveTimeout: frontIdleMs,
    },
    (req, res) => handle(req, res, false),
  )
  // A client that asks before sending its body (`Expect: 100-continue`) is asked for one within
  // the limit, and gets the Worker's answer straight away for one declared over it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => handle(req, res, true))
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const lines = [
      `${req.method} ${req.url} HTTP/1.1`,
      ...forwardedHeaders(req, ca, opts).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ]
    relayUpgrade(socket, head, lines.join('\r\n'), (connected) =>
      connect({ host: HOST, port: opts.upstreamPort }, connected),
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: HOST, port: opts.port, exclusive: true }, () => resolve(server))
  })
}
