import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maxRequestBodyBytes } from '../../../src/config'
import { startHttpsFront } from '../../../src/launcher/https-front'

// Request bodies through the https front, in front of a stand-in for the Worker: a body within
// the limit arrives whole and framed by its length; of one over it the stand-in gets only the
// head, and its answer is the client's; an answer the stand-in breaks off is not passed as whole;
// a GET goes on without the body a client sent with it, and without the headers that frame one.
const dir = mkdtempSync(join(tmpdir(), 'front-bodies-'))
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'key.pem',
    '-out',
    'cert.pem',
    '-subj',
    '/CN=localhost',
    '-days',
    '1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ],
  { cwd: dir, stdio: 'ignore' },
)
const cert = readFileSync(join(dir, 'cert.pem'), 'utf8')
const key = readFileSync(join(dir, 'key.pem'), 'utf8')

const refusal = 'refused by the stand-in'

interface Seen {
  headers: IncomingMessage['headers']
  bytes: number
  url?: string
  /** the port of the front's connection the request came over */
  via?: number
}

describe('request bodies through the https front', () => {
  let upstream: Server
  let front: Awaited<ReturnType<typeof startHttpsFront>>
  const seen: Seen[] = []

  beforeAll(async () => {
    upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/cut') {
        res.writeHead(200, { 'Content-Length': '100' })
        return res.write('only part', () => res.destroy())
      }
      // Like the Worker: a GET is answered at once, and whatever it is sent after the head is read as its body.
      if (req.method === 'GET') {
        const got: Seen = {
          headers: req.headers,
          bytes: 0,
          url: req.url,
          via: req.socket.remotePort,
        }
        seen.push(got)
        req.on('data', (c: Buffer) => (got.bytes += c.length))
        return res.end(`got ${req.url}`)
      }
      // Like the Worker: a declared length over the limit is refused unread, in an answer framed by its length.
      if (Number(req.headers['content-length'] ?? 0) > maxRequestBodyBytes) {
        seen.push({ headers: req.headers, bytes: 0 })
        return res
          .writeHead(413, {
            'Content-Type': 'text/plain',
            'Content-Length': Buffer.byteLength(refusal),
          })
          .end(refusal)
      }
      let bytes = 0
      req.on('data', (c: Buffer) => (bytes += c.length))
      req.on('end', () => {
        seen.push({ headers: req.headers, bytes })
        res.end(`read ${bytes}`)
      })
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    front = await startHttpsFront({
      port: 0,
      cert,
      key,
      clientCa: cert,
      upstreamPort: (upstream.address() as AddressInfo).port,
      secret: 'identity-secret',
    })
  })
  afterAll(() => {
    front?.close()
    upstream?.close()
  })

  /** POSTs `body` in 64 KiB writes; resolves with the answer and whether the front asked for the body (100 Continue). */
  const post = (
    path: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<{ status: number; text: string; continued: boolean }> =>
    new Promise((resolve, reject) => {
      const port = (front.address() as AddressInfo).port
      let continued = false
      const req = httpsRequest(
        { host: '127.0.0.1', port, path, method: 'POST', headers, ca: cert, agent: false },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, continued }))
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      const send = () => {
        for (let at = 0; at < body.length; at += 64 * 1024)
          req.write(body.subarray(at, at + 64 * 1024))
        req.end()
      }
      req.on('continue', () => {
        continued = true
        send()
      })
      if (!headers.expect) send()
    })

  it('passes a chunked body within the limit on whole, with its length, and the answer back', async () => {
    const body = Buffer.alloc(1024 * 1024, 0x61)
    const res = await post('/echo', body, {
      'transfer-encoding': 'chunked',
      expect: '100-continue',
    })
    expect(res).toEqual({ status: 200, text: `read ${body.length}`, continued: true })
    const got = seen.at(-1)!
    expect(got.headers['content-length']).toBe(String(body.length))
    expect([got.headers['transfer-encoding'], got.headers.expect]).toEqual([undefined, undefined])
  })

  it.each([
    ['Content-Length', false],
    ['chunked', true],
  ])('gives the answer to a body over the limit to the client (%s)', async (_, chunked) => {
    const body = Buffer.alloc(maxRequestBodyBytes + 512 * 1024, 0x61)
    const framing: Record<string, string> = chunked
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(body.length) }
    const res = await post('/echo', body, framing)
    expect(res).toMatchObject({ status: 413, text: refusal })
    expect(Number(seen.at(-1)!.headers['content-length'])).toBeGreaterThan(maxRequestBodyBytes)
  })

  it('answers a client that asks before sending a body declared over the limit without asking for it', async () => {
    const body = Buffer.alloc(maxRequestBodyBytes + 1, 0x61)
    const res = await post('/echo', body, {
      'content-length': String(body.length),
      expect: '100-continue',
    })
    expect(res).toEqual({ status: 413, text: refusal, continued: false })
  })

  /** GETs `path`, sending `body` after the head when given; resolves with the answer. */
  const get = (
    path: string,
    headers: Record<string, string>,
    agent: HttpsAgent | false,
    body?: string,
  ): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const port = (front.address() as AddressInfo).port
      const req = httpsRequest(
        { host: '127.0.0.1', port, path, method: 'GET', headers, ca: cert, agent },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end(body)
    })

  it.each([
    ['Content-Length', { 'content-length': '5' }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])(
    'drops the body a client sends with a GET, and the requests after it on the same connection to the Worker arrive whole (%s)',
    async (_, framing) => {
      const from = seen.length
      const kept = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: cert })
      try {
        const first = await get('/first', framing, kept, 'hello')
        // The same client's next request on its same connection, then another client's on a connection of its own.
        const again = await get('/again', {}, kept)
        const other = await get('/other', {}, false)
        expect([first, again, other]).toEqual([
          { status: 200, text: 'got /first' },
          { status: 200, text: 'got /again' },
          { status: 200, text: 'got /other' },
        ])
      } finally {
        kept.destroy()
      }
      const got = seen.slice(from)
      expect(
        got.map((s) => [
          s.url,
          s.bytes,
          s.headers['content-length'],
          s.headers['transfer-encoding'],
        ]),
      ).toEqual([
        ['/first', 0, undefined, undefined],
        ['/again', 0, undefined, undefined],
        ['/other', 0, undefined, undefined],
      ])
      // All three over the one kept-alive connection to the Worker.
      expect(new Set(got.map((s) => s.via)).size).toBe(1)
    },
  )

  it('breaks off an answer the Worker breaks off, rather than passing it as whole', async () => {
    await expect(
      post('/cut', Buffer.from('{}'), { 'content-type': 'application/json' }),
    ).rejects.toThrow(/aborted|socket hang up|ECONNRESET/)
  })
})
