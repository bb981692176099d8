import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { httpGet as getFrom } from './helpers/http-get'
import { kubectl, type KubectlResult } from './helpers/kubectl'
import { startKubectl, type KubectlProcess } from './helpers/kubectl-stream'
import { stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// `kubectl port-forward` and `kubectl proxy` through the node's outbound tunnel: kubectl's SPDY-over-WebSocket goes to
// the Worker, through the node's gateway to the agent, which serves the SPDY streams and dials
// the pod's ports (process runtime: the node's loopback). Real launcher, agent, kubectl and HTTP.

const NODE = 'e2e-portforward-node'
let server: TestServer
let agent: AgentProcess
const ports: Record<string, number> = {}
const forwards: KubectlProcess[] = []

const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

/** An HTTP server on each port given: `/bytes/N` answers N bytes of a fixed pattern, a POST its body, anything else a greeting. */
const httpServer = `
const http = require('http')
for (const p of process.argv.slice(1)) http.createServer((q, s) => {
  if (q.url.startsWith('/bytes/')) {
    const n = Number(q.url.slice(7)); const b = Buffer.alloc(n); for (let i = 0; i < n; i++) b[i] = i % 251
    s.setHeader('Content-Length', n); return s.end(b)
  }
  if (q.method === 'POST') { const c = []; q.on('data', (d) => c.push(d)); return q.on('end', () => s.end('echo ' + Buffer.concat(c))) }
  if (q.url === '/authorization') return s.end('authorization: ' + q.headers.authorization)
  s.end('hello from ' + p + ' ' + q.url)
}).listen(Number(p), '127.0.0.1')`

function container(listen: number[]) {
  return {
    name: 'web',
    image: 'node',
    command: [process.execPath, '-e', httpServer, ...listen.map(String)],
    ports: listen.map((p) => ({ containerPort: p })),
  }
}

const httpGet = (port: number, path: string) => getFrom('127.0.0.1', port, path)

async function forward(args: string[]): Promise<KubectlProcess> {
  const pf = startKubectl(['port-forward', ...args], {
    kubeconfig: server.kubeconfig,
    timeoutMs: 120_000,
  })
  forwards.push(pf)
  await waitFor(() => pf.stdout().includes('Forwarding from') || pf.done(), {
    what: `kubectl port-forward ${args.join(' ')} listening`,
    timeoutMs: 30_000,
    intervalMs: 100,
  })
  expect(pf.done(), pf.stderr()).toBe(false)
  return pf
}

beforeAll(async () => {
  for (const k of ['web', 'web2', 'api', 'closed', 'l1', 'l2', 'l3', 'l4', 'l5'])
    ports[k] = await freePort()
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  const web: Manifest = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { nodeName: NODE, containers: [container([ports.web!, ports.web2!])] },
  }
  const svc: Manifest = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: {
      selector: { app: 'web' },
      ports: [
        { name: 'a', port: 80, targetPort: ports.web },
        { name: 'b', port: 81, targetPort: ports.web2 },
      ],
    },
  }
  const deploy: Manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: { nodeName: NODE, containers: [container([ports.api!])] },
      },
    },
  }
  const applied = await run(['apply', '-f', '-'], stream(web, svc, deploy))
  expect(applied.code, applied.stderr).toBe(0)
  try {
    await waitFor(
      async () =>
        (await run(['get', 'pods', '-o', 'jsonpath={.items[*].status.phase}'])).stdout.trim() ===
        'Running Running',
      { what: 'pods Running', timeoutMs: 60_000, intervalMs: 250 },
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
  }
})

afterAll(async () => {
  for (const pf of forwards) await pf.stop()
  await agent?.stop()
  await server?.dispose()
})

describe('kubectl port-forward', () => {
  it('forwards a local port to a pod port, for many concurrent connections', async () => {
    const pf = await forward(['pod/web', `${ports.l1}:${ports.web}`])
    expect(pf.stdout()).toContain(`Forwarding from 127.0.0.1:${ports.l1} -> ${ports.web}`)
    // The tunnel may still be coming up just after the pod runs: the first request is retried.
    const first = await waitFor(() => httpGet(ports.l1!, '/first').catch(() => undefined), {
      what: 'a first answer',
      timeoutMs: 20_000,
      intervalMs: 250,
    })
    expect(first.body.toString()).toBe(`hello from ${ports.web} /first`)
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => httpGet(ports.l1!, `/n${i}`)),
    )
    expect(answers.map((a) => a.body.toString())).toEqual(
      Array.from({ length: 12 }, (_, i) => `hello from ${ports.web} /n${i}`),
    )
    expect(pf.stdout()).toContain(`Handling connection for ${ports.l1}`)
  })

  it('carries a large body intact', async () => {
    const pf = await forward(['web', `${ports.l2}:${ports.web}`])
    const size = 8 * 1024 * 1024
    const res = await waitFor(() => httpGet(ports.l2!, `/bytes/${size}`).catch(() => undefined), {
      what: 'a large answer',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    const expected = Buffer.alloc(size)
    for (let i = 0; i < size; i++) expected[i] = i % 251
    expect(res.body.byteLength).toBe(size)
    expect(createHash('sha256').update(res.body).digest('hex')).toBe(
      createHash('sha256').update(expected).digest('hex'),
    )
    expect(pf.done()).toBe(false)
  })

  it('forwards two service ports of svc/<name> to the ports they target', async () => {
    await forward(['svc/web', `${ports.l3}:80`, `${ports.l4}:81`])
    const a = await waitFor(() => httpGet(ports.l3!, '/a').catch(() => undefined), {
      what: 'port a',
      timeoutMs: 20_000,
      intervalMs: 250,
    })
    const b = await httpGet(ports.l4!, '/b')
    expect(a.body.toString()).toBe(`hello from ${ports.web} /a`)
    expect(b.body.toString()).toBe(`hello from ${ports.web2} /b`)
  })

  it('forwards to a pod of deploy/<name>', async () => {
    const local = await freePort()
    await forward(['deploy/api', `${local}:${ports.api}`])
    const res = await waitFor(() => httpGet(local, '/x').catch(() => undefined), {
      what: 'the deployment pod',
      timeoutMs: 20_000,
      intervalMs: 250,
    })
    expect(res.body.toString()).toBe(`hello from ${ports.api} /x`)
  })

  it('reports a refused connection on the error stream, as the kubelet words it', async () => {
    const pf = await forward(['pod/web', `${ports.l5}:${ports.closed}`])
    await httpGet(ports.l5!, '/').catch(() => undefined)
    // kubectl 1.32 prints the error stream's message, then ends the whole forward.
    const res = await pf.finished('kubectl to end after the error')
    expect(res.stderr).toContain(
      `an error occurred forwarding ${ports.l5} -> ${ports.closed}: error forwarding port ${ports.closed} to pod default/web, uid `,
    )
    expect(res.stderr).toContain(`dial tcp4 127.0.0.1:${ports.closed}: connect: connection refused`)
    expect(res.stderr).toContain('lost connection to pod')
  })

  it('refuses a request that is not a WebSocket upgrade, a caller without the right, and a pod that does not exist', async () => {
    const plain = await server.request('/api/v1/namespaces/default/pods/web/portforward', {
      method: 'POST',
      token: server.token,
    })
    expect(plain.status).toBe(400)
    expect(JSON.parse(plain.body).message).toContain('Upgrade request required')
    expect((await run(['create', 'serviceaccount', 'outsider'])).code).toBe(0)
    const token = (await run(['create', 'token', 'outsider'])).stdout.trim()
    const denied = await server.request('/api/v1/namespaces/default/pods/web/portforward', {
      token,
    })
    expect(denied.status).toBe(403)
    expect(JSON.parse(denied.body).message).toContain(
      'User "system:serviceaccount:default:outsider" cannot get resource "pods/portforward"',
    )
    const missing = await run(['port-forward', 'pod/nope', '18099:80'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('pods "nope" not found')
  })
})

describe('pods/proxy and services/proxy behind kubectl proxy', () => {
  let base = ''
  beforeAll(async () => {
    const port = await freePort()
    const proxy = startKubectl(['proxy', `--port=${port}`], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 120_000,
    })
    forwards.push(proxy)
    await waitFor(() => proxy.stdout().includes('Starting to serve'), {
      what: 'kubectl proxy serving',
      timeoutMs: 30_000,
      intervalMs: 100,
    })
    base = `http://127.0.0.1:${port}/api/v1/namespaces/default`
  })

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(base + path, init)
    return { status: res.status, body: await res.text() }
  }

  it('reaches a service port by number or name, path and query kept', async () => {
    const a = await waitFor(
      async () => {
        const r = await get('/services/web:80/proxy/hello?x=1')
        return r.status === 200 ? r : undefined
      },
      { what: 'the service proxy', timeoutMs: 20_000, intervalMs: 250 },
    )
    expect(a.body).toBe(`hello from ${ports.web} /hello?x=1`)
    expect((await get('/services/web:b/proxy/')).body).toBe(`hello from ${ports.web2} /`)
    // The caller's API credentials stay with the API server.
    expect((await get('/services/web:80/proxy/authorization')).body).toBe(
      'authorization: undefined',
    )
  })

  it('reaches a pod port and carries a request body', async () => {
    const res = await get(`/pods/web:${ports.web2}/proxy/echo`, {
      method: 'POST',
      body: 'ping through the tunnel',
    })
    expect(res.status).toBe(200)
    expect(res.body).toBe('echo ping through the tunnel')
  })

  it('answers Status errors as kube-apiserver does', async () => {
    const missing = await get('/services/nope/proxy/')
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body).message).toBe('services "nope" not found')
    const applied = await run(['create', 'service', 'clusterip', 'empty', '--tcp=80:8080'])
    expect(applied.code, applied.stderr).toBe(0)
    const none = await get('/services/empty:80/proxy/')
    expect(none.status).toBe(503)
    expect(JSON.parse(none.body).message).toBe('no endpoints available for service "empty"')
    const refused = await get(`/pods/web:${ports.closed}/proxy/`)
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body).message).toBe(
      `error trying to reach service: dial tcp4 127.0.0.1:${ports.closed}: connect: connection refused`,
    )
  })
})
