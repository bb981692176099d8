import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpsFront } from '../../../src/launcher/https-front'

// The https front in front of a stand-in for the Worker that answers with the headers it got:
// what a client may not set never reaches the Worker, over plain requests and upgrades alike.
const dir = mkdtempSync(join(tmpdir(), 'front-headers-'))
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
const ingressSecret = 'edge-secret-0123456789'

const hostile = {
  'MF-Original-URL': 'http://127.0.0.1/elsewhere',
  'MF-Route-Override': 'other',
  'MF-CF-Blob': '{"clientIp":"203.0.113.9"}',
  'MF-Disable-Pretty-Error': 'true',
  'MF-Proxy-Shared-Secret': 'guess',
  'mf-custom-fetch-service': 'x',
  'CF-Connecting-IP': '203.0.113.9',
  'CF-Ray': 'made-up',
  'CF-IPCountry': 'XX',
  'CF-Visitor': '{"scheme":"https"}',
  'CF-Worker': 'evil.example',
  'X-Forwarded-For': '203.0.113.9',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'https',
  Forwarded: 'for=203.0.113.9',
  'X-Real-IP': '203.0.113.9',
  'x-edgeplane-client-cert': 'guess',
  'x-edgeplane-client-identity': 'guess',
}

describe('headers through the https front', () => {
  let upstream: Server
  let front: Awaited<ReturnType<typeof startHttpsFront>>

  beforeAll(async () => {
    const seen = (req: IncomingMessage) => JSON.stringify(req.headers)
    upstream = createServer((req, res) => res.end(seen(req)))
    upstream.on('upgrade', (req: IncomingMessage, socket) => {
      const body = seen(req)
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      )
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const upstreamPort = (upstream.address() as AddressInfo).port
    front = await startHttpsFront({
      port: 0,
      cert,
      key,
      clientCa: cert,
      upstreamPort,
      secret: 'identity-secret',
      ingressSecret,
    })
  })
  afterAll(() => {
    front?.close()
    upstream?.close()
  })

  /** The headers the Worker would see for a request (or an upgrade) with `headers`. */
  const through = (
    headers: Record<string, string>,
    upgrade = false,
  ): Promise<Record<string, string>> =>
    new Promise((resolve, reject) => {
      const port = (front.address() as AddressInfo).port
      const all = upgrade ? { ...headers, Connection: 'Upgrade', Upgrade: 'websocket' } : headers
      const req = httpsRequest(
        { host: '127.0.0.1', port, path: '/version', headers: all, ca: cert, agent: false },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => resolve(JSON.parse(text) as Record<string, string>))
        },
      )
      req.on('error', reject)
      req.end()
    })

  it.each([false, true])(
    'drops MF-*, cf-*, forwarding and identity headers a client sends (upgrade: %s), and keeps the rest',
    async (upgrade) => {
      const seen = await through(
        { ...hostile, Authorization: 'Bearer t', 'X-Custom': 'kept' },
        upgrade,
      )
      const names = Object.keys(seen)
      expect(
        names.filter((n) =>
          /^(mf-|x-forwarded-|forwarded$|x-real-ip$|x-edgeplane-client-)/.test(n),
        ),
      ).toEqual([])
      expect(names.filter((n) => n.startsWith('cf-'))).toEqual(['cf-connecting-ip'])
      expect(seen['cf-connecting-ip']).toBe('127.0.0.1')
      expect([seen.authorization, seen['x-custom']]).toEqual(['Bearer t', 'kept'])
    },
  )

  it('lets what the local edge marks with its secret keep the forwarding headers it passes on, and nothing of the runtime’s', async () => {
    const seen = await through({ ...hostile, 'x-edgeplane-ingress': ingressSecret })
    expect(seen['cf-connecting-ip']).toBe('203.0.113.9')
    expect([seen['x-forwarded-for'], seen['x-forwarded-host'], seen.forwarded]).toEqual([
      '203.0.113.9',
      'evil.example',
      'for=203.0.113.9',
    ])
    expect(
      Object.keys(seen).filter(
        (n) => n.startsWith('mf-') || (n.startsWith('cf-') && n !== 'cf-connecting-ip'),
      ),
    ).toEqual([])
    const forged = await through({ ...hostile, 'x-edgeplane-ingress': 'not-the-secret' })
    expect(forged['cf-connecting-ip']).toBe('127.0.0.1')
    expect(forged['x-forwarded-for']).toBeUndefined()
  })
})
