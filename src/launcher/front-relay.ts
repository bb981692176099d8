import {
  request as httpRequest,
  type Agent,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { failure } from '../apimachinery/status'
import { maxRequestBodyBytes } from '../config'
import { bodilessHeaders, type BodyDrain } from './front-body'
import { HOST } from './host'

/**
 * What goes to the Worker after the head: nothing (of a body the client sends with a GET, which
 * the front drops meanwhile), a body read whole, or nothing of a body over the limit, whose rest
 * the front drops meanwhile.
 */
export type Outgoing =
  | { kind: 'bodiless'; drain?: BodyDrain }
  | { kind: 'body'; body: Buffer }
  | { kind: 'over'; drain: BodyDrain }

export interface Upstream {
  /** where the Worker listens, on HOST */
  port: number
  /** the keep-alive connections reads reuse */
  agent: Agent
}

// How long the Worker has to answer a request with a body over the limit: it refuses such a
// request without reading it, so only a route that waits for the body (never sent) runs out of it.
const overLimitAnswerMs = 10_000

const tooLarge = () =>
  JSON.stringify(
    failure(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: limit is ${maxRequestBodyBytes}`,
    ),
  )

/**
 * Passes one request to the Worker and its answer back. Reads reuse idle connections, and are sent
 * again on a new one if a reused connection turns out to have been closed by the Worker's side; a
 * request with a body gets a connection of its own and is never sent twice. Once the Worker's
 * answer has begun it is the answer: a failure of the connection after it (the Worker closing
 * without reading a body it refused) leaves a complete answer as it is and cuts an incomplete one
 * off, rather than passing it as whole. A request sent without a body goes without the headers
 * that frame one, so the Worker never waits for bytes that would come from the next request on
 * the same connection.
 */
export function relay(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: Upstream,
  headers: [string, string][],
  out: Outgoing,
  mayReuse = true,
): void {
  const reuse = out.kind === 'bodiless' && mayReuse
  const up = httpRequest({
    host: HOST,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers: (out.kind === 'bodiless' ? bodilessHeaders(headers) : headers).flat(),
    agent: reuse ? upstream.agent : false,
  })
  let answer: IncomingMessage | undefined
  let answeredHere = false
  let timer: NodeJS.Timeout | undefined
  up.on('response', (upRes) => {
    answer = upRes
    clearTimeout(timer)
    upRes.on('close', () => {
      if (!upRes.complete) res.destroy()
    })
    res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders)
    res.flushHeaders()
    const drain = out.kind === 'body' ? undefined : out.drain
    if (!drain) return void upRes.pipe(res)
    upRes.pipe(res, { end: false })
    upRes.on('end', () => endAfterDrain(req, res, drain))
  })
  up.on('error', (err) => {
    if (answer) return void (answer.complete || res.destroy())
    if (answeredHere || res.destroyed || res.writableEnded) return
    if (reuse && up.reusedSocket && !res.headersSent)
      return relay(req, res, upstream, headers, out, false)
    if (res.headersSent) return void res.destroy()
    res.writeHead(502, { 'Content-Type': 'text/plain' })
    res.end(`502 Bad Gateway: ${err.message}\n`)
  })
  res.on('close', () => {
    clearTimeout(timer)
    up.destroy()
  })
  if (out.kind === 'bodiless') return void up.end()
  if (out.kind === 'body') return void up.end(out.body)
  up.flushHeaders()
  timer = setTimeout(() => {
    answeredHere = true
    up.destroy()
    const body = tooLarge()
    res.writeHead(413, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    })
    res.write(body)
    endAfterDrain(req, res, out.drain)
  }, overLimitAnswerMs)
}

/**
 * Ends an answer to an over-limit request once the rest of its body is dropped. A refusal is framed
 * by its length, so the client has all of it already; ending it earlier would let the connection
 * close (as a client that asked for `Connection: close` wants) with the body still coming. A body
 * not read to its end closes the connection.
 */
function endAfterDrain(req: IncomingMessage, res: ServerResponse, drain: BodyDrain): void {
  drain.answered()
  void drain.settled.then((whole) => {
    if (res.destroyed) return
    if (!whole) res.once('finish', () => req.socket.destroy())
    res.end()
  })
}
