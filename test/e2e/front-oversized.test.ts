import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'

// A body over the 3 MiB limit gets the Worker's 413 Status through the local https front, however
// the client goes on with the rest of its body: curl (which first asks with `Expect: 100-continue`,
// or sends at once without it), Node's https client writing on while the answer comes, and a
// client that writes its whole body before it reads anything. Each way, Content-Length and
// chunked, three times.
describe('an oversized body over the https front', () => {
  let server: TestServer
  let dir: string
  let bigFile: string
  const path = '/api/v1/namespaces/default/configmaps'
  const tries = [1, 2, 3]
  // Over the limit, and within what the front reads and drops after it.
  const big = Buffer.from(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'oversized' },
      data: { k: 'x'.repeat(4 * 1024 * 1024) },
    }),
  )

  beforeAll(async () => {
    server = await startServer()
    dir = await mkdtemp(join(tmpdir(), 'edgeplane-oversized-'))
    bigFile = join(dir, 'big.json')
    await writeFile(bigFile, big)
    // A warm server answers a refusal within milliseconds, while the client is still sending.
    for (let i = 0; i < 10; i++)
      expect((await server.request(path, { token: server.token })).status).toBe(200)
  })

  afterAll(async () => {
    await server?.dispose()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  // The Worker's own answer, as kube-apiserver's: indented for curl, or when asked with ?pretty=true.
  const indented = /^\{\n {2}"kind": "Status",/
  const prettyPath = `${path}?pretty=true`
  const expectTooLarge = (status: number, body: string) => {
    expect(status, body.slice(0, 200)).toBe(413)
    expect(JSON.parse(body)).toMatchObject({
      kind: 'Status',
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
    })
    expect(body).toMatch(indented)
  }

  /** curl as a user runs it, verifying the server against the state dir's CA; resolves with its exit code, the status and the body. */
  async function curl(
    extra: string[],
    token = server.token,
  ): Promise<{ code: number | null; status: number; body: string }> {
    const out = join(dir, `out-${Date.now()}-${Math.random()}`)
    const args = [
      '-sS',
      '--max-time',
      '20',
      '--cacert',
      join(server.stateDir, 'tls', 'cert.pem'),
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-H',
      `Authorization: Bearer ${token}`,
    ]
    args.push(
      ...extra,
      '--data-binary',
      `@${bigFile}`,
      '-o',
      out,
      '-w',
      '%{http_code}',
      server.url + path,
    )
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', (err) =>
        reject(
          new Error(`curl could not run (the end-to-end tests need it on PATH): ${err.message}`),
        ),
      )
      child.on('close', resolve)
    })
    const body = await readFile(out, 'utf8').catch(() => '')
    expect(code, `curl ${extra.join(' ')}: ${stderr}`).toBe(0)
    return { code, status: Number(stdout), body }
  }

  it.each([
    ['Content-Length, asking first', []],
    ['Content-Length, sending at once', ['-H', 'Expect:']],
    ['chunked, asking first', ['-H', 'Transfer-Encoding: chunked']],
    ['chunked, sending at once', ['-H', 'Transfer-Encoding: chunked', '-H', 'Expect:']],
  ])('curl gets the 413 (%s)', async (_, extra) => {
    for (const _try of tries) {
      const res = await curl(extra)
      expectTooLarge(res.status, res.body)
    }
  })

  it('curl without a valid token gets the 401 the Worker decides first', async () => {
    const res = await curl(['-H', 'Expect:'], 'not-a-token')
    expect(res.status).toBe(401)
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized' })
  })

  it.each([['Content-Length'], ['chunked']])(
    'Node https client writing its whole body on gets the 413 (%s)',
    async (framing) => {
      for (const _try of tries) {
        const res = await nodePost(framing === 'chunked')
        expectTooLarge(res.status, res.body)
      }
    },
  )

  it.each([['Content-Length'], ['chunked']])(
    'a client that sends its whole body before reading gets the 413 (%s)',
    async (framing) => {
      for (const _try of tries) {
        const res = await sendAllThenRead(framing === 'chunked')
        expectTooLarge(res.status, res.body)
      }
    },
  )

  it('stores nothing, and the next create succeeds', async () => {
    expect((await server.request(`${path}/oversized`, { token: server.token })).status).toBe(404)
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after-oversized' },
      data: { k: 'v' },
    })
    const res = await server.request(path, {
      method: 'POST',
      token: server.token,
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(res.status).toBe(201)
  })

  /** Node's https client, which writes the whole body whatever comes back meanwhile. */
  function nodePost(chunked: boolean): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
    }
    if (chunked) headers['transfer-encoding'] = 'chunked'
    else headers['content-length'] = String(big.length)
    return new Promise((resolve, reject) => {
      const req = httpsRequest(server.url + prettyPath, {
        method: 'POST',
        ca: server.ca,
        headers,
        agent: false,
        timeout: 20_000,
      })
      req.on('response', (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
      })
      req.on('timeout', () => req.destroy(new Error('no answer within 20 s')))
      req.on('error', reject)
      if (!chunked) return void req.end(big)
      for (let at = 0; at < big.length; at += 64 * 1024) req.write(big.subarray(at, at + 64 * 1024))
      req.end()
    })
  }

  /** A raw TLS client that writes the request whole, then reads the answer (as Python's http.client does). */
  function sendAllThenRead(chunked: boolean): Promise<{ status: number; body: string }> {
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${big.length}`
    const head = `POST ${prettyPath} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\n${framing}\r\nConnection: close\r\n\r\n`
    const body = chunked
      ? Buffer.concat([
          Buffer.from(`${big.length.toString(16)}\r\n`),
          big,
          Buffer.from('\r\n0\r\n\r\n'),
        ])
      : big
    return new Promise((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: server.port, ca: server.ca }, () => {
        socket.write(head)
        socket.write(body, () => socket.on('data', (c: Buffer) => chunks.push(c)))
      })
      const chunks: Buffer[] = []
      const timer = setTimeout(() => socket.destroy(new Error('no answer within 20 s')), 20_000)
      socket.on('error', reject)
      socket.on('close', () => {
        clearTimeout(timer)
        const text = Buffer.concat(chunks).toString('utf8')
        const end = text.indexOf('\r\n\r\n')
        const answerHead = text.slice(0, end)
        const answerBody = text.slice(end + 4)
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answerHead)?.[1] ?? 0)
        resolve({
          status,
          body: /^transfer-encoding: *chunked/im.test(answerHead)
            ? unchunk(answerBody)
            : answerBody,
        })
      })
    })
  }

  /** A chunked body's content. */
  function unchunk(body: string): string {
    let out = ''
    for (let at = 0; ; ) {
      const line = body.indexOf('\r\n', at)
      const size = parseInt(body.slice(at, line), 16)
      if (!(size > 0)) return out
      out += body.slice(line + 2, line + 2 + size)
      at = line + 2 + size + 2
    }
  }
})
