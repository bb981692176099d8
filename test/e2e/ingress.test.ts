import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { kubectl, type KubectlResult } from './helpers/kubectl'
import { podManifest, stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Ingress and LoadBalancer Services served at the edge: the launcher's ingress port hands requests
// to the Worker, which routes them by Host and path to a ready endpoint, through the node's tunnel.

const NODE = 'e2e-ingress-node'
let server: TestServer
let agent: AgentProcess
let ingressPort = 0
const ports = { a: 0, b: 0, echo: 0 }

/** A WebSocket echo server (the repository's `ws` package), answering each message as `echo: <message>` of the same kind. */
const echoServer = `
const { WebSocketServer } = require('ws')
new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[1]) }).on('connection', (ws, req) => {
  ws.send('hello ' + req.url)
  ws.on('message', (m, binary) => ws.send(binary ? Buffer.concat([Buffer.from('echo: '), m]) : 'echo: ' + m, { binary }))
})`

const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

const httpServer = `
const name = process.argv[1]
require('http').createServer((q, s) => s.end(q.url === '/auth' ? 'auth: ' + q.headers.authorization : name + ' ' + q.headers.host + ' ' + q.url)).listen(Number(process.argv[2]), '127.0.0.1')`

function app(name: string, port: number): Manifest[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: name } },
      spec: {
        nodeName: NODE,
        containers: [
          {
            name: 'web',
            image: 'node',
            command: [process.execPath, '-e', httpServer, name, String(port)],
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: port }] },
    },
  ]
}

function viaEdge(
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: ingressPort,
        path,
        headers: { ...headers, Host: host },
        agent: false,
      },
      (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const ingress: Manifest = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'shop' },
  spec: {
    rules: [
      {
        host: 'shop.example',
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: 'front', port: { number: 80 } } },
            },
            {
              path: '/api',
              pathType: 'Prefix',
              backend: { service: { name: 'api', port: { number: 80 } } },
            },
          ],
        },
      },
      {
        host: 'api.example',
        http: {
          paths: [
            {
              path: '/v1/status',
              pathType: 'Exact',
              backend: { service: { name: 'api', port: { number: 80 } } },
            },
          ],
        },
      },
    ],
  },
}

beforeAll(async () => {
  ports.a = await freePort()
  ports.b = await freePort()
  ports.echo = await freePort()
  ingressPort = await freePort()
  server = await startServer({ env: { EDGEPLANE_INGRESS_PORT: String(ingressPort) } })
  agent = startNodeAgent(server.kubeconfig, NODE)
  const echo: Manifest[] = [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'echo', labels: { app: 'echo' } },
      spec: {
        nodeName: NODE,
        containers: [
          {
            name: 'echo',
            image: 'node',
            command: [process.execPath, '-e', echoServer, String(ports.echo)],
            env: [
              {
                name: 'NODE_PATH',
                value: fileURLToPath(new URL('../../node_modules', import.meta.url)),
              },
            ],
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'echo' },
      spec: {
        selector: { app: 'echo' },
        ports: [{ name: 'ws', port: 8080, targetPort: ports.echo }],
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'echo' },
      spec: {
        ingressClassName: 'edgeplane',
        rules: [
          {
            host: 'ws.example',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'echo', port: { name: 'ws' } } },
                },
              ],
            },
          },
        ],
      },
    },
  ]
  const applied = await run(
    ['apply', '-f', '-'],
    stream(...app('front', ports.a), ...app('api', ports.b), ingress, ...echo),
  )
  expect(applied.code, applied.stderr).toBe(0)
  try {
    await waitFor(
      async () =>
        (
          await run([
            'get',
            'endpoints',
            'front',
            'api',
            'echo',
            '-o',
            'jsonpath={.items[*].subsets[*].addresses[*].ip}',
          ])
        ).stdout
          .trim()
          .split(' ').length === 3,
      {
        what: 'every service with a ready endpoint',
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
  }
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('Ingress at the edge', () => {
  it('installs the edgeplane IngressClass as the default class', async () => {
    const res = await run([
      'get',
      'ingressclass',
      'edgeplane',
      '-o',
      'jsonpath={.spec.controller} {.metadata.annotations.ingressclass\\.kubernetes\\.io/is-default-class}',
    ])
    expect(res.stdout).toBe('edgeplane.dev/edge true')
  })

  it('routes two hosts and two paths by Host header and path', async () => {
    const front = await waitFor(
      async () => {
        const r = await viaEdge('shop.example', '/index.html?x=1').catch(() => undefined)
        return r?.status === 200 ? r : undefined
      },
      { what: 'the first answer through the edge', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(front.body).toBe('front shop.example /index.html?x=1')
    expect((await viaEdge('shop.example', '/api/items')).body).toBe('api shop.example /api/items')
    // Prefix matches whole path elements only.
    expect((await viaEdge('shop.example', '/apiary')).body).toBe('front shop.example /apiary')
    expect((await viaEdge('api.example', '/v1/status')).body).toBe('api api.example /v1/status')
    const notExact = await viaEdge('api.example', '/v1/status/more')
    expect(notExact.status).toBe(404)
    // The app's own credentials reach it.
    expect((await viaEdge('shop.example', '/auth', { Authorization: 'Basic dTpw' })).body).toBe(
      'auth: Basic dTpw',
    )
    const unknown = await viaEdge('nobody.example', '/')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toContain('no Ingress rule matches host "nobody.example"')
  })

  it('carries a WebSocket through the Ingress, text and binary messages both ways', async () => {
    const received: Array<string | Buffer> = []
    const ws = await waitFor(
      () =>
        new Promise<WebSocket | undefined>((resolve) => {
          const socket = new WebSocket(`ws://127.0.0.1:${ingressPort}/chat?room=1`, {
            headers: { Host: 'ws.example' },
          })
          socket.on('message', (m, binary) =>
            received.push(binary ? Buffer.from(m as Buffer) : m.toString()),
          )
          socket.once('open', () => resolve(socket))
          socket.once('error', () => resolve(undefined))
        }),
      { what: 'the WebSocket through the edge', timeoutMs: 20_000, intervalMs: 250 },
    )
    ws.send('ping')
    ws.send(Buffer.from([1, 2, 3]), { binary: true })
    await waitFor(() => received.length >= 3, {
      what: 'three messages back',
      timeoutMs: 10_000,
      intervalMs: 50,
    })
    expect(received[0]).toBe('hello /chat?room=1')
    expect(received[1]).toBe('echo: ping')
    expect(Buffer.isBuffer(received[2])).toBe(true)
    expect([...(received[2] as Buffer)]).toEqual([...Buffer.from('echo: '), 1, 2, 3])
    ws.close()
  })

  it('reports the edge address in the Ingress status', async () => {
    const ip = await waitFor(
      async () =>
        (
          await run([
            'get',
            'ingress',
            'shop',
            '-o',
            'jsonpath={.status.loadBalancer.ingress[0].ip}',
          ])
        ).stdout.trim(),
      {
        what: 'the ingress address',
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    )
    expect(ip).toBe('127.0.0.1')
    const table = await run(['get', 'ingress', 'shop'])
    // Created without a class, it was given the default one (DefaultIngressClass admission).
    expect(table.stdout).toMatch(
      /shop\s+edgeplane\s+shop\.example,api\.example\s+127\.0\.0\.1\s+80/,
    )
  })

  it('serves an Ingress made by kubectl create ingress (a protobuf body)', async () => {
    const created = await run([
      'create',
      'ingress',
      'quick',
      '--class=edgeplane',
      '--rule=quick.example/*=api:80',
    ])
    expect(created.code, created.stderr).toBe(0)
    const res = await waitFor(
      async () => {
        const r = await viaEdge('quick.example', '/anything')
        return r.status === 200 ? r : undefined
      },
      { what: 'the new rule served', timeoutMs: 20_000, intervalMs: 250 },
    )
    expect(res.body).toBe('api quick.example /anything')
  })

  it('serves a LoadBalancer Service at its edge hostname and reports it', async () => {
    const lb: Manifest = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'shop-lb' },
      spec: {
        type: 'LoadBalancer',
        selector: { app: 'front' },
        ports: [{ port: 80, targetPort: ports.a }],
      },
    }
    const applied = await run(['apply', '-f', '-'], stream(lb))
    expect(applied.code, applied.stderr).toBe(0)
    const hostname = await waitFor(
      async () =>
        (
          await run([
            'get',
            'svc',
            'shop-lb',
            '-o',
            'jsonpath={.status.loadBalancer.ingress[0].hostname}',
          ])
        ).stdout.trim(),
      {
        what: 'the LoadBalancer hostname',
        timeoutMs: 30_000,
        intervalMs: 250,
      },
    )
    expect(hostname).toBe('shop-lb.default.localhost')
    const res = await waitFor(
      async () => {
        const r = await viaEdge(hostname, '/lb')
        return r.status === 200 ? r : undefined
      },
      { what: 'the LoadBalancer hostname served', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(res.body).toBe('front shop-lb.default.localhost /lb')
  })

  it('never shadows the API: a catch-all Ingress leaves the API port to the API', async () => {
    const catchAll: Manifest = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'catch-all' },
      spec: { defaultBackend: { service: { name: 'front', port: { number: 80 } } } },
    }
    expect((await run(['apply', '-f', '-'], stream(catchAll))).code).toBe(0)
    const other = await waitFor(
      async () => {
        const r = await viaEdge('anything.example', '/x')
        return r.status === 200 ? r : undefined
      },
      { what: 'the default backend', timeoutMs: 20_000, intervalMs: 250 },
    )
    expect(other.body).toBe('front anything.example /x')
    const api = await server.request('/api/v1/namespaces/default/services/front', {
      token: server.token,
    })
    expect(api.status).toBe(200)
    expect(JSON.parse(api.body).kind).toBe('Service')
    // The API port does not take ingress traffic, even marked as such without the launcher's secret.
    const posing = await server.request('/x', {
      token: server.token,
      headers: { 'X-Edgeplane-Ingress': 'guess' },
    })
    expect(posing.status).toBe(404)
    expect(JSON.parse(posing.body).kind).toBe('Status')
  })
})

describe('spreading over endpoints, and a node whose tunnel is down', () => {
  const NODE2 = 'e2e-ingress-node-2'
  let agent2: AgentProcess | undefined

  afterAll(async () => {
    await agent2?.stop()
  })

  it('spreads requests over the ready endpoints and skips a node without a tunnel', async () => {
    agent2 = startNodeAgent(server.kubeconfig, NODE2)
    const [pa, pb] = [await freePort(), await freePort()]
    // One Service, two pods on two nodes; a named targetPort resolves to each pod's own port.
    const spreadPod = (name: string, node: string, port: number): Manifest =>
      podManifest(name, {
        labels: { app: 'spread' },
        nodeName: node,
        containers: [
          {
            name: 'web',
            image: 'node',
            command: [process.execPath, '-e', httpServer, name, String(port)],
            ports: [{ name: 'http', containerPort: port }],
          },
        ],
      })
    const svc: Manifest = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'spread' },
      spec: { selector: { app: 'spread' }, ports: [{ port: 80, targetPort: 'http' }] },
    }
    const ing: Manifest = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'spread' },
      spec: {
        rules: [
          {
            host: 'spread.example',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'spread', port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    }
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(spreadPod('spread-a', NODE, pa), spreadPod('spread-b', NODE2, pb), svc, ing),
        )
      ).code,
    ).toBe(0)
    const seen = new Set<string>()
    await waitFor(
      async () => {
        const r = await viaEdge('spread.example', '/')
        if (r.status === 200) seen.add(r.body.split(' ')[0]!)
        return seen.size === 2
      },
      { what: 'both endpoints answering through the edge', timeoutMs: 60_000, intervalMs: 100 },
    )
    await agent2.stop()
    agent2 = undefined
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => viaEdge('spread.example', '/')),
    )
    expect(answers.map((a) => `${a.status} ${a.body.split(' ')[0]}`)).toEqual(
      Array.from({ length: 12 }, () => '200 spread-a'),
    )
  })
})
