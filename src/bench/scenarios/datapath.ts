import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import { startControlPlane, type ControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import { runLoad } from '../load'
import type { BenchOptions } from '../options'
import { freePort } from '../ports'
import { spawnGroup, type GroupProcess } from '../procs'
import { errorText, progress } from '../progress'
import { REPO_ROOT } from '../repo'
import type { Percentiles } from '../stats'
import { waitUntil } from '../wait'
import type { Outcome } from './outcome'

export interface DataPathResult {
  requests: number
  concurrency: number
  /** through the edge: ingress port → Worker → node gateway → agent → pod */
  ingress: { perSecond: number; latency: Percentiles; errors: number }
  /** the same pod's port, straight from the bench */
  direct: { perSecond: number; latency: Percentiles; errors: number }
  /** the Service's NodePort on a second node without pods: agent → its gateway → the pod's gateway → agent → pod */
  nodePort: { perSecond: number; latency: Percentiles; errors: number } | { error: string }
  portForward: { bytes: number; seconds: number; mbPerSecond: number } | { error: string }
}

const NODE = 'bench-datapath'
const NODE_B = 'bench-datapath-b'
/** Each agent binds its node ports on a loopback address of its own. */
const nodePortAddress = (n: number) => `127.77.${process.pid % 250}.${n}`
const HOST = 'bench.example'

/** A pod that answers `ok` and, for `/bytes/N`, N bytes of zeros (streamed in 1 MiB writes). */
const server = `
require('http').createServer((q, s) => {
  if (!q.url.startsWith('/bytes/')) return s.end('ok')
  let left = Number(q.url.slice(7)); const chunk = Buffer.alloc(1 << 20)
  s.setHeader('Content-Length', left)
  const more = () => { while (left > 0) { const n = Math.min(left, chunk.length); left -= n; if (!s.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return s.once('drain', more) } s.end() }
  more()
}).listen(Number(process.argv[1]), '127.0.0.1')`

/**
 * The data path: HTTP at c=16 through the edge (Ingress → node tunnel → pod) against the same pod
 * served directly, and one large transfer through `kubectl port-forward`. One process-runtime
 * node agent, on a control plane of its own.
 */
export async function dataPathRun(o: BenchOptions): Promise<Outcome<DataPathResult>> {
  const requests = o.mode === 'full' ? 4_000 : o.mode === 'quick' ? 1_000 : 100
  const transferBytes = o.mode === 'smoke' ? 8 * 1024 * 1024 : 100 * 1024 * 1024
  const ingressPort = await freePort()
  const podPort = await freePort()
  let cp: ControlPlane | undefined
  let agent: GroupProcess | undefined
  let agentB: GroupProcess | undefined
  try {
    progress('data path: control plane, one process node, a pod, its Service and Ingress')
    cp = await startControlPlane({ EDGEPLANE_INGRESS_PORT: String(ingressPort) })
    const kubeconfig = join(cp.stateDir, 'kubeconfig')
    const agentArgs = (name: string, n: number) => [
      '--import',
      'tsx',
      'src/agent/cli.ts',
      '--kubeconfig',
      kubeconfig,
      '--name',
      name,
      '--runtime',
      'process',
      '--nodeport-addresses',
      nodePortAddress(n),
    ]
    agent = spawnGroup('data path agent', process.execPath, agentArgs(NODE, 1), {
      cwd: REPO_ROOT,
      env: process.env,
    })
    agentB = spawnGroup('data path agent B', process.execPath, agentArgs(NODE_B, 2), {
      cwd: REPO_ROOT,
      env: process.env,
    })
    const api = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: 2 })
    const nodePort = await apply(api, podPort)
    const edge = new HttpClient(`http://127.0.0.1:${ingressPort}`, { connections: o.concurrency })
    const direct = new HttpClient(`http://127.0.0.1:${podPort}`, { connections: o.concurrency })
    await waitUntil(
      'the pod served through the edge',
      async () =>
        (await edge.request('GET', '/', undefined, { host: HOST }).catch(() => undefined))
          ?.status === 200,
      {
        timeoutMs: 90_000,
        exited: agent.exited,
        output: agent.output,
      },
    )
    const load = (client: HttpClient, headers: Record<string, string>) =>
      runLoad({
        concurrency: o.concurrency,
        count: requests,
        timeLimitMs: o.timeLimitMs,
        request: async () => {
          const res = await client.request('GET', '/', undefined, headers)
          if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`)
        },
      })
    progress(
      `data path: ${requests} GETs at c=${o.concurrency}, direct, through the edge, then the NodePort of a node without the pod`,
    )
    const d = await load(direct, {})
    const e = await load(edge, { host: HOST })
    const viaB = new HttpClient(`http://${nodePortAddress(2)}:${nodePort}`, {
      connections: o.concurrency,
    })
    const np = await waitUntil(
      'the NodePort served by the second node',
      async () => (await viaB.request('GET', '/').catch(() => undefined))?.status === 200,
      { timeoutMs: 60_000, exited: agentB.exited, output: agentB.output },
    )
      .then(() => load(viaB, {}))
      .then(
        (r) => ({ perSecond: r.perSecond, latency: r.latency, errors: r.errors }),
        (err: unknown) => ({ error: errorText(err) }),
      )
    viaB.close()
    edge.close()
    direct.close()
    api.close()
    progress(`data path: ${Math.round(transferBytes / 1048576)} MiB through kubectl port-forward`)
    const portForward = await transfer(kubeconfig, podPort, transferBytes).catch(
      (err: unknown) => ({ error: errorText(err) }),
    )
    return {
      requests,
      concurrency: o.concurrency,
      ingress: { perSecond: e.perSecond, latency: e.latency, errors: e.errors },
      direct: { perSecond: d.perSecond, latency: d.latency, errors: d.errors },
      nodePort: np,
      portForward,
    }
  } catch (err) {
    return { error: errorText(err) }
  } finally {
    await agent?.stop()
    await agentB?.stop()
    await cp?.stop()
  }
}

/** Creates the pod, its NodePort Service and the Ingress; returns the node port allocated. */
async function apply(api: HttpClient, podPort: number): Promise<number> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      nodeName: NODE,
      containers: [
        { name: 'web', image: 'node', command: [process.execPath, '-e', server, String(podPort)] },
      ],
    },
  }
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: {
      type: 'NodePort',
      selector: { app: 'web' },
      ports: [{ port: 80, targetPort: podPort }],
    },
  }
  let nodePort = 0
  const ing = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web' },
    spec: {
      rules: [
        {
          host: HOST,
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'web', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  }
  for (const [path, body] of [
    ['/api/v1/namespaces/default/pods', pod],
    ['/api/v1/namespaces/default/services', svc],
    ['/apis/networking.k8s.io/v1/namespaces/default/ingresses', ing],
  ] as const) {
    const res = await api.request('POST', path, JSON.stringify(body))
    if (res.status !== 201)
      throw new Error(`POST ${path}: HTTP ${res.status} ${res.body.slice(0, 200)}`)
    if (body === svc)
      nodePort = (JSON.parse(res.body) as { spec: { ports: Array<{ nodePort: number }> } }).spec
        .ports[0]!.nodePort
  }
  return nodePort
}

/** One GET of `bytes` through `kubectl port-forward`, timed from the request to the last byte. */
async function transfer(
  kubeconfig: string,
  podPort: number,
  bytes: number,
): Promise<{ bytes: number; seconds: number; mbPerSecond: number }> {
  const local = await freePort()
  const pf = spawn(
    process.env.KUBECTL || 'kubectl',
    ['--kubeconfig', kubeconfig, 'port-forward', 'pod/web', `${local}:${podPort}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  pf.stdout.on('data', (c: Buffer) => (out += c.toString()))
  pf.stderr.on('data', (c: Buffer) => (out += c.toString()))
  try {
    await waitUntil('kubectl port-forward', async () => out.includes('Forwarding from'), {
      timeoutMs: 30_000,
      exited: () => pf.exitCode !== null,
      output: () => out,
    })
    const t0 = performance.now()
    const got = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: local, path: `/bytes/${bytes}`, agent: false },
        (res) => {
          let n = 0
          res.on('data', (c: Buffer) => (n += c.length))
          res.on('end', () => resolve(n))
          res.on('error', reject)
        },
      )
      req.setTimeout(300_000, () => req.destroy(new Error('the transfer took over 5 minutes')))
      req.on('error', reject)
      req.end()
    })
    const seconds = (performance.now() - t0) / 1000
    if (got !== bytes) throw new Error(`received ${got} of ${bytes} bytes`)
    return { bytes, seconds, mbPerSecond: bytes / 1048576 / seconds }
  } finally {
    pf.kill('SIGTERM')
  }
}
