import { connect, createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { httpGet } from './helpers/http-get'
import { kubectl, type KubectlResult } from './helpers/kubectl'
import { stream, type Manifest } from './helpers/manifests'
import { loopbackAddress, startAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// NodePorts served by the agents: two process-runtime nodes, each binding its node ports on a
// loopback address of its own; the pod runs on node A only. Node B reaches it through the tunnels
// (B's gateway → A's gateway → A's agent). Real launcher, agents, kubectl and HTTP.

const A = 'e2e-nodeport-a'
const B = 'e2e-nodeport-b'
const addrA = loopbackAddress()
const addrB = loopbackAddress()
let server: TestServer
let agentA: AgentProcess
let agentB: AgentProcess
let podPort = 0
const nodePorts: Record<string, number> = {}

const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

const httpServer = `
const http = require('http')
http.createServer((q, s) => {
  if (q.url.startsWith('/bytes/')) {
    const n = Number(q.url.slice(7)); const b = Buffer.alloc(n); for (let i = 0; i < n; i++) b[i] = i % 251
    s.setHeader('Content-Length', n); return s.end(b)
  }
  s.end('hello from ' + process.env.POD_NAME + ' ' + q.url)
}).listen(Number(process.argv[1]), '127.0.0.1')`

/** How a plain TCP connect to host:port ends: `connected` or the error code. */
function dialOutcome(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port })
    s.once('connect', () => {
      s.destroy()
      resolve('connected')
    })
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
  })
}

/** A listener on `host` at a free port of the node port range that no Service here holds. */
async function holdPortInRange(host: string): Promise<{ server: Server; port: number }> {
  for (let i = 0; i < 50; i++) {
    const port = 30000 + Math.floor(Math.random() * 2768)
    if (Object.values(nodePorts).includes(port)) continue
    const server = createServer()
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, host, () => resolve(true))
    })
    if (ok) return { server, port }
  }
  throw new Error('no free port in the node port range')
}

const answered = (host: string, port: number, path: string) =>
  httpGet(host, port, path).then(
    (r) => (r.status === 200 ? r : undefined),
    () => undefined,
  )

beforeAll(async () => {
  podPort = await freePort()
  server = await startServer()
  const args = (name: string, address: string) => [
    '--name',
    name,
    '--runtime',
    'process',
    '--verbose',
    '--nodeport-addresses',
    address,
  ]
  agentA = startAgent(server.kubeconfig, args(A, addrA))
  agentB = startAgent(server.kubeconfig, args(B, addrB))
  const web: Manifest = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      nodeName: A,
      containers: [
        {
          name: 'web',
          image: 'node',
          command: [process.execPath, '-e', httpServer, String(podPort)],
          env: [{ name: 'POD_NAME', value: 'web' }],
          ports: [{ containerPort: podPort }],
        },
      ],
    },
  }
  const svc = (name: string, policy: string): Manifest => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: {
      type: 'NodePort',
      externalTrafficPolicy: policy,
      selector: { app: 'web' },
      ports: [{ port: 80, targetPort: podPort }],
    },
  })
  const applied = await run(
    ['apply', '-f', '-'],
    stream(web, svc('web', 'Cluster'), svc('web-local', 'Local')),
  )
  expect(applied.code, applied.stderr).toBe(0)
  for (const name of ['web', 'web-local'])
    nodePorts[name] = Number(
      (await run(['get', 'service', name, '-o', 'jsonpath={.spec.ports[0].nodePort}'])).stdout,
    )
  try {
    await waitFor(
      async () =>
        (
          await run([
            'get',
            'endpoints',
            'web',
            '-o',
            'jsonpath={.subsets[*].addresses[*].nodeName}',
          ])
        ).stdout.trim() === A,
      { what: 'the pod a ready endpoint', timeoutMs: 60_000, intervalMs: 250 },
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent A output:\n${agentA.output()}`)
  }
})

afterAll(async () => {
  await agentA?.stop()
  await agentB?.stop()
  await server?.dispose()
})

describe('NodePorts on the agents', () => {
  it('serves a NodePort on an agent whose pods are all on another node, through the tunnels', async () => {
    const port = nodePorts.web!
    expect(port).toBeGreaterThanOrEqual(30000)
    const first = await waitFor(() => answered(addrB, port, '/via-b'), {
      what: `node B answering on ${addrB}:${port}`,
      timeoutMs: 30_000,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}\nagent B output:\n${agentB.output()}`)
    })
    expect(first.body.toString()).toBe('hello from web /via-b')
    // Node A's agent served it as a tunnel stream, not node B dialling the pod itself.
    expect(agentA.output()).toMatch(/stream \d+ opened: tcp default\/web/)
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, i) => httpGet(addrB, port, `/n${i}`)),
    )
    expect(many.map((r) => r.body.toString())).toEqual(
      Array.from({ length: 10 }, (_, i) => `hello from web /n${i}`),
    )
    const size = 4 * 1024 * 1024
    const big = await httpGet(addrB, port, `/bytes/${size}`)
    expect(big.body.byteLength).toBe(size)
    expect(big.body.every((b, i) => b === i % 251)).toBe(true)
  })

  it("serves the same NodePort on the pod's own node, directly", async () => {
    const res = await waitFor(() => answered(addrA, nodePorts.web!, '/via-a'), {
      what: `node A answering on ${addrA}:${nodePorts.web}`,
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    expect(res.body.toString()).toBe('hello from web /via-a')
  })

  it('with externalTrafficPolicy Local, serves only on nodes with an endpoint and refuses elsewhere', async () => {
    const port = nodePorts['web-local']!
    const res = await waitFor(() => answered(addrA, port, '/local'), {
      what: 'node A serving the Local service',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    expect(res.body.toString()).toBe('hello from web /local')
    expect(await dialOutcome(addrB, port)).toBe('ECONNREFUSED')
    // Node B does serve the Cluster one at the same time.
    expect((await httpGet(addrB, nodePorts.web!, '/cluster')).body.toString()).toBe(
      'hello from web /cluster',
    )
  })

  it('reports a node port it cannot bind as a Warning Event on the Node, and keeps serving the others', async () => {
    // Something else holds a port on node B's address; a Service then asks for that node port.
    const { server: blocker, port } = await holdPortInRange(addrB)
    try {
      const svc: Manifest = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'taken' },
        spec: {
          type: 'NodePort',
          selector: { app: 'web' },
          ports: [{ port: 80, targetPort: podPort, nodePort: port }],
        },
      }
      const applied = await run(['apply', '-f', '-'], stream(svc))
      expect(applied.code, applied.stderr).toBe(0)
      const events = await waitFor(
        async () => {
          const out = (
            await run([
              'get',
              'events',
              '-n',
              'default',
              '--field-selector',
              `involvedObject.kind=Node,involvedObject.name=${B},reason=FailedToOpenNodePort`,
              '-o',
              'jsonpath={.items[*].message}',
            ])
          ).stdout
          return out.includes(`${port}`) ? out : undefined
        },
        { what: 'a FailedToOpenNodePort event on node B', timeoutMs: 20_000, intervalMs: 250 },
      )
      expect(events).toContain(
        `can't open port ${addrB}:${port}/tcp for service default/taken, skipping it: listen EADDRINUSE`,
      )
      expect(agentB.child.exitCode).toBeNull()
      expect((await httpGet(addrB, nodePorts.web!, '/still')).body.toString()).toBe(
        'hello from web /still',
      )
      // Node A binds its own address, so it serves the port all the same.
      expect(
        (
          await waitFor(() => answered(addrA, port, '/taken'), {
            what: 'node A serving the port',
            timeoutMs: 20_000,
            intervalMs: 250,
          })
        ).body.toString(),
      ).toBe('hello from web /taken')
    } finally {
      blocker.close()
    }
  })

  it('closes a node port when its Service is deleted', async () => {
    const del = await run(['delete', 'service', 'web-local'])
    expect(del.code, del.stderr).toBe(0)
    await waitFor(
      async () => (await dialOutcome(addrA, nodePorts['web-local']!)) === 'ECONNREFUSED',
      { what: 'the Local node port closed on node A', timeoutMs: 20_000, intervalMs: 250 },
    )
  })
})
