import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  initialProbeResult,
  probeTiming,
  ProbeCounter,
  ProbeWorker,
  runProbe,
  type Probe,
} from '../../../../src/agent/runtime/probes'
import { waitFor } from '../../../helpers'

const PATH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('runProbe against local servers', () => {
  let http: Server
  let httpPort = 0
  let closedPort = 0
  const seen: { path?: string; header?: string }[] = []

  beforeAll(async () => {
    http = createHttpServer((req, res) => {
      seen.push({ path: req.url, header: req.headers['x-probe'] as string | undefined })
      const code = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('code') ?? 200)
      if (req.url?.startsWith('/slow')) return setTimeout(() => res.end('late'), 1_500)
      res.statusCode = code
      res.end('ok')
    })
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
    httpPort = (http.address() as AddressInfo).port
    // A port nobody listens on: bind, note it, close.
    const tmp = createTcpServer()
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r))
    closedPort = (tmp.address() as AddressInfo).port
    await new Promise<void>((r) => tmp.close(() => r()))
  })

  afterAll(() => {
    http.close()
  })

  const target = () => ({ host: '127.0.0.1', ports: { web: httpPort }, env: PATH_ENV })

  const cases: { name: string; probe: () => Probe; ok: boolean; message?: RegExp }[] = [
    {
      name: 'httpGet 200',
      probe: () => ({ httpGet: { path: '/healthz', port: httpPort } }),
      ok: true,
    },
    {
      name: 'httpGet 302 counts as success',
      probe: () => ({ httpGet: { path: '/?code=302', port: httpPort } }),
      ok: true,
    },
    {
      name: 'httpGet 404 fails',
      probe: () => ({ httpGet: { path: '/?code=404', port: httpPort } }),
      ok: false,
      message: /statuscode: 404/,
    },
    {
      name: 'httpGet 500 fails',
      probe: () => ({ httpGet: { path: '/?code=500', port: httpPort } }),
      ok: false,
      message: /statuscode: 500/,
    },
    {
      name: 'httpGet by named port',
      probe: () => ({ httpGet: { path: '/named', port: 'web' } }),
      ok: true,
    },
    {
      name: 'httpGet unknown named port',
      probe: () => ({ httpGet: { path: '/', port: 'nope' } }),
      ok: false,
      message: /unable to find port "nope"/,
    },
    {
      name: 'httpGet refused',
      probe: () => ({ httpGet: { path: '/', port: closedPort } }),
      ok: false,
      message: /ECONNREFUSED/,
    },
    {
      name: 'httpGet past its timeout',
      probe: () => ({ httpGet: { path: '/slow', port: httpPort }, timeoutSeconds: 1 }),
      ok: false,
      message: /deadline exceeded/,
    },
    { name: 'tcpSocket open', probe: () => ({ tcpSocket: { port: httpPort } }), ok: true },
    {
      name: 'tcpSocket closed',
      probe: () => ({ tcpSocket: { port: closedPort } }),
      ok: false,
      message: /dial tcp 127.0.0.1:\d+/,
    },
    { name: 'exec exit 0', probe: () => ({ exec: { command: ['sh', '-c', 'exit 0'] } }), ok: true },
    {
      name: 'exec exit 1 with output',
      probe: () => ({ exec: { command: ['sh', '-c', 'echo not yet; exit 1'] } }),
      ok: false,
      message: /^not yet$/,
    },
    {
      name: 'exec sees the container environment',
      probe: () => ({ exec: { command: ['sh', '-c', 'test "$PATH" != ""'] } }),
      ok: true,
    },
    {
      name: 'exec missing program',
      probe: () => ({ exec: { command: ['/no/such/program'] } }),
      ok: false,
      message: /ENOENT/,
    },
    {
      name: 'exec past its timeout',
      probe: () => ({ exec: { command: ['sleep', '5'] }, timeoutSeconds: 1 }),
      ok: false,
      message: /timed out after 1s/,
    },
    { name: 'no handler', probe: () => ({}), ok: false, message: /no handler/ },
  ]
  for (const c of cases) {
    it(c.name, async () => {
      const outcome = await runProbe(c.probe(), target())
      expect(outcome.ok).toBe(c.ok)
      if (c.message) expect(outcome.message).toMatch(c.message)
    })
  }

  it('sends the path and the probe headers', async () => {
    await runProbe(
      {
        httpGet: {
          path: 'with-header',
          port: httpPort,
          httpHeaders: [{ name: 'X-Probe', value: 'yes' }],
        },
      },
      target(),
    )
    expect(seen).toContainEqual({ path: '/with-header', header: 'yes' })
  })
})

describe('ProbeCounter', () => {
  const cases: {
    name: string
    success: number
    failure: number
    initial: boolean | undefined
    results: boolean[]
    want: (boolean | undefined)[]
  }[] = [
    {
      name: 'readiness turns ready on the first success',
      success: 1,
      failure: 3,
      initial: false,
      results: [true],
      want: [true],
    },
    {
      name: 'readiness needs successThreshold in a row',
      success: 2,
      failure: 3,
      initial: false,
      results: [true, false, true, true],
      want: [false, false, false, true],
    },
    {
      name: 'failures below the threshold keep ready',
      success: 1,
      failure: 3,
      initial: true,
      results: [false, false, true, false, false],
      want: [true, true, true, true, true],
    },
    {
      name: 'failureThreshold failures in a row flip it',
      success: 1,
      failure: 3,
      initial: true,
      results: [false, false, false],
      want: [true, true, false],
    },
    {
      name: 'startup starts unknown',
      success: 1,
      failure: 2,
      initial: undefined,
      results: [false, false],
      want: [undefined, false],
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const counter = new ProbeCounter(c.success, c.failure, c.initial)
      expect(c.results.map((r) => (counter.observe(r), counter.result))).toEqual(c.want)
    })
  }

  it('starts readiness not ready, liveness alive, startup unknown', () => {
    expect([
      initialProbeResult('readiness'),
      initialProbeResult('liveness'),
      initialProbeResult('startup'),
    ]).toEqual([false, true, undefined])
  })

  it('applies kubelet defaults', () => {
    expect(probeTiming({})).toEqual({
      initialDelayMs: 0,
      periodMs: 10_000,
      timeoutMs: 1_000,
      successThreshold: 1,
      failureThreshold: 3,
    })
    expect(
      probeTiming({
        initialDelaySeconds: 2,
        periodSeconds: 1,
        timeoutSeconds: 3,
        successThreshold: 2,
        failureThreshold: 1,
      }),
    ).toEqual({
      initialDelayMs: 2_000,
      periodMs: 1_000,
      timeoutMs: 3_000,
      successThreshold: 2,
      failureThreshold: 1,
    })
  })
})

describe('ProbeWorker', () => {
  it('waits for initialDelaySeconds, then reports each change of result', async () => {
    const changes: { at: number; ok: boolean }[] = []
    const started = Date.now()
    // Succeeds once the marker file exists, which is created after the first probes failed.
    const dir = await mkdtemp('/tmp/edgeplane-probe-')
    const worker = new ProbeWorker(
      'readiness',
      {
        exec: { command: ['sh', '-c', `test -e ${dir}/ready`] },
        initialDelaySeconds: 1,
        periodSeconds: 1,
      },
      { host: '127.0.0.1', env: PATH_ENV },
      (ok) => changes.push({ at: Date.now() - started, ok }),
      started,
    )
    worker.start()
    await new Promise((r) => setTimeout(r, 1_400))
    expect(changes).toEqual([])
    expect(worker.result).toBe(false)
    await writeFile(`${dir}/ready`, '')
    await waitFor(() => changes.length > 0, { what: 'the readiness change', timeoutMs: 5_000 })
    worker.stop()
    expect(changes.map((c) => c.ok)).toEqual([true])
    expect(changes[0]!.at).toBeGreaterThanOrEqual(1_900)
    await rm(dir, { recursive: true, force: true })
  })
})
