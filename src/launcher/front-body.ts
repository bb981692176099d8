import type { IncomingMessage, ServerResponse } from 'node:http'
import { maxRequestBodyBytes } from '../config'

/**
 * A request body as the https front read it: `whole` within kube-apiserver's limit, or `over` it
 * (declared so by Content-Length, or grown past it: `read` bytes were taken so far), or `gone`
 * when the client went away before sending all of it.
 */
export type FrontBody =
  | { kind: 'whole'; body: Buffer }
  | { kind: 'over'; read: number }
  | { kind: 'gone' }

/** The declared Content-Length, when there is a valid one. */
function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length']
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
}

/**
 * Reads the client's body whole, up to the limit, before anything of it goes on to the Worker: the
 * Worker then always gets a complete body it reads to the end, or none at all. A body declared
 * larger than the limit is not collected (a client that sent `Expect: 100-continue` is not asked
 * for it); one that grows past the limit is collected no further.
 */
export function readFrontBody(
  req: IncomingMessage,
  res: ServerResponse,
  expectsContinue: boolean,
): Promise<FrontBody> {
  if ((declaredLength(req) ?? 0) > maxRequestBodyBytes)
    return Promise.resolve({ kind: 'over', read: 0 })
  if (expectsContinue) res.writeContinue()
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxRequestBodyBytes) return void chunks.push(chunk)
      req.pause()
      stop()
      resolve({ kind: 'over', read: size })
    }
    const onEnd = () => {
      stop()
      resolve({ kind: 'whole', body: Buffer.concat(chunks, size) })
    }
    const onClose = () => {
      stop()
      resolve({ kind: 'gone' })
    }
    const stop = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('close', onClose)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('close', onClose)
  })
}

const framingHeaders = new Set(['content-length', 'transfer-encoding', 'expect'])

/**
 * The headers the Worker gets with a body the front has read: its length as `Content-Length`
 * (a chunked body is passed on whole, so with its length), and no `Expect` (the front answers
 * that itself). `length` is what the Worker is told of an over-limit body it will not be sent.
 */
export function bodyHeaders(
  headers: readonly [string, string][],
  req: IncomingMessage,
  length: number,
): [string, string][] {
  const framed =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
  const out = bodilessHeaders(headers)
  if (framed || length > 0) out.push(['Content-Length', String(length)])
  return out
}

/** The headers of a request relayed without a body: none that would make the Worker wait for one. */
export function bodilessHeaders(headers: readonly [string, string][]): [string, string][] {
  return headers.filter(([name]) => !framingHeaders.has(name.toLowerCase()))
}

/** Whether the client sends a body after the head (a GET may, and it is read and dropped). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0'
  )
}

/** What the Worker is told of an over-limit body: its declared length, or just past the limit for a chunked one. */
export function overLimitLength(req: IncomingMessage): number {
  return Math.max(declaredLength(req) ?? 0, maxRequestBodyBytes + 1)
}

// Past the limit, how much more of a body is read and dropped, and for how long after the
// answer, before the connection closes.
const lingerBytes = 4 * 1024 * 1024
const lingerMs = 2_000

/** The rest of an over-limit body being read and dropped. */
export interface BodyDrain {
  /** Starts the clock: the answer is all written. */
  answered(): void
  /** Whether the body was read to its end (true), or reading stopped short of it (false). */
  settled: Promise<boolean>
}

/**
 * Reads and drops the rest of an over-limit body (or the whole of a body the Worker is not sent,
 * as a GET's) while the answer goes out: up to the limit and 4 MiB more in all, and for at most
 * 2 s after the answer. The connection is closed only after that, as Go's server does: closing
 * with unread data resets the connection, and a reset can destroy the answer before the client
 * reads it, or fail the client's own write before it looks for an answer. A body read to its end leaves the connection as the client asked for it.
 */
export function dropRestOfBody(req: IncomingMessage, alreadyRead: number): BodyDrain {
  let read = alreadyRead
  let timer: NodeJS.Timeout | undefined
  let settle!: (whole: boolean) => void
  const settled = new Promise<boolean>((resolve) => (settle = resolve))
  const stop = () => {
    clearTimeout(timer)
    req.pause()
    settle(false)
  }
  req.on('data', (chunk: Buffer) => {
    read += chunk.length
    if (read > maxRequestBodyBytes + lingerBytes) stop()
  })
  req.on('end', () => {
    clearTimeout(timer)
    settle(true)
  })
  req.on('close', () => {
    clearTimeout(timer)
    settle(req.complete)
  })
  req.resume()
  return {
    settled,
    answered: () => {
      if (!req.complete) timer ??= setTimeout(stop, lingerMs)
    },
  }
}
