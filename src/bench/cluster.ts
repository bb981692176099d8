import { access } from 'node:fs/promises'
import { join } from 'node:path'
import type WebSocket from 'ws'
import type { ControlPlane } from './control-plane'
import type { HttpClient } from './http-client'
import { killGroup, spawnGroup, type GroupProcess } from './procs'
import { REPO_ROOT } from './repo'
import { openWatch } from './scenarios/watch'
import { sleep, waitUntil } from './wait'

/** One `src/agent/cli.ts --runtime sim` process, in its own process group. */
export interface SimAgent {
  process: GroupProcess
  nodeNames: string[]
  /** Ends the whole group at once, as a machine that loses power would: no goodbye to the API. */
  crash(): void
  stop(): Promise<void>
}

export interface SimAgentOptions {
  /** Node name, or the prefix of `prefix-0 … prefix-(n-1)` when n > 1. */
  name: string
  nodes: number
  /** Lease renewal interval; must stay well under the server's node monitor grace period. */
  leaseSeconds?: number
}

/** Starts `npm run agent -- --runtime sim --nodes N` against the control plane's kubeconfig. */
export async function startSimAgent(cp: ControlPlane, o: SimAgentOptions): Promise<SimAgent> {
  const kubeconfig = join(cp.stateDir, 'kubeconfig')
  // The launcher writes it just after the runtime is up, so it can trail /readyz by a moment.
  await waitUntil('the kubeconfig', () => access(kubeconfig).then(() => true), {
    timeoutMs: 10_000,
    exited: cp.process.exited,
    output: cp.process.output,
  })
  // It joins with the admin kubeconfig once; its nodes' credentials stay in the control plane's state dir.
  const stateDir = join(cp.stateDir, 'agents', o.name)
  const args = [
    '--import',
    'tsx',
    'src/agent/cli.ts',
    '--kubeconfig',
    kubeconfig,
    '--state-dir',
    stateDir,
    '--name',
    o.name,
    '--runtime',
    'sim',
    '--nodes',
    String(o.nodes),
  ]
  if (o.leaseSeconds !== undefined) args.push('--lease-seconds', String(o.leaseSeconds))
  const proc = spawnGroup(`sim agent ${o.name}`, process.execPath, args, {
    cwd: REPO_ROOT,
    env: process.env,
  })
  const nodeNames =
    o.nodes <= 1 ? [o.name] : Array.from({ length: o.nodes }, (_, i) => `${o.name}-${i}`)
  return {
    process: proc,
    nodeNames,
    crash: () => killGroup(proc.pid, 'SIGKILL'),
    stop: () => proc.stop(),
  }
}

interface NodeList {
  items: {
    metadata: { name: string }
    status?: { conditions?: { type: string; status: string }[] }
  }[]
}

/** Waits until every named node is registered with Ready=True. */
export async function waitForReadyNodes(
  client: HttpClient,
  names: string[],
  agents: SimAgent[],
  timeoutMs: number,
): Promise<void> {
  const want = new Set(names)
  await waitUntil(
    `${names.length} Ready nodes`,
    async () => {
      const res = await client.expectOk('GET', '/api/v1/nodes')
      const nodes = (JSON.parse(res.body) as NodeList).items
      return (
        nodes.filter(
          (n) =>
            want.has(n.metadata.name) &&
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ).length === want.size
      )
    },
    {
      timeoutMs,
      exited: () => agents.some((a) => a.process.exited()),
      output: () => agents.map((a) => a.process.output()).join('\n'),
    },
  )
}

/** What the bench needs to know of a pod, as its last watch event showed it. */
export interface PodView {
  name: string
  nodeName?: string
  phase?: string
  deleting: boolean
  /** When this client first saw it bound / Running (performance.now()). */
  boundAt?: number
  runningAt?: number
}

interface PodObject {
  metadata: { name: string; resourceVersion?: string; deletionTimestamp?: string }
  spec?: { nodeName?: string }
  status?: { phase?: string }
}

/**
 * Follows the pods of one namespace over a WebSocket watch and keeps their current state, so
 * that waiting for a condition costs one event stream, not repeated LISTs of every pod. A closed
 * stream is resumed from the last resourceVersion seen; if that is gone, the namespace is relisted.
 */
export class PodTracker {
  readonly pods = new Map<string, PodView>()
  private ws: WebSocket | undefined
  private rv = ''
  private closed = false
  private waiters = new Set<() => void>()

  private constructor(
    private readonly client: HttpClient,
    private readonly cp: ControlPlane,
    readonly namespace: string,
  ) {}

  static async start(client: HttpClient, cp: ControlPlane, namespace: string): Promise<PodTracker> {
    const t = new PodTracker(client, cp, namespace)
    await t.relist()
    await t.connect()
    return t
  }

  /** Resolves with the predicate's value once it is truthy, re-checked on every event; fails after timeoutMs. */
  async until<T>(what: string, check: () => T | undefined | false, timeoutMs: number): Promise<T> {
    const deadline = performance.now() + timeoutMs
    for (;;) {
      const v = check()
      if (v) return v
      const left = deadline - performance.now()
      if (left <= 0)
        throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`)
      // Also re-checked every 500 ms, in case the stream is being resumed.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.waiters.delete(done)
          resolve()
        }
        const timer = setTimeout(done, Math.min(left, 500))
        this.waiters.add(done)
      })
    }
  }

  /** Pods that are not being deleted. */
  live(): PodView[] {
    return [...this.pods.values()].filter((p) => !p.deleting)
  }

  close(): void {
    this.closed = true
    this.ws?.terminate()
  }

  private async relist(): Promise<void> {
    const res = await this.client.expectOk('GET', `/api/v1/namespaces/${this.namespace}/pods`)
    const list = JSON.parse(res.body) as {
      metadata: { resourceVersion: string }
      items: PodObject[]
    }
    const now = performance.now()
    const seen = new Set<string>()
    for (const p of list.items) {
      seen.add(p.metadata.name)
      this.apply(p, now)
    }
    for (const name of [...this.pods.keys()]) if (!seen.has(name)) this.pods.delete(name)
    this.rv = list.metadata.resourceVersion
    this.wake()
  }

  private async connect(): Promise<void> {
    const url = `${this.cp.url.replace(/^https:/, 'wss:')}/api/v1/namespaces/${this.namespace}/pods?watch=true&allowWatchBookmarks=true&resourceVersion=${this.rv}`
    const ws = await openWatch(url, this.cp)
    this.ws = ws
    ws.on('message', (data: WebSocket.RawData) => {
      const now = performance.now()
      for (const line of data.toString().split('\n')) {
        if (!line) continue
        const event = JSON.parse(line) as { type: string; object: PodObject & { code?: number } }
        if (event.type === 'ERROR') {
          // Usually 410 Gone: our resourceVersion was compacted away. Start over from a list.
          this.rv = ''
          ws.terminate()
          return
        }
        const rv = event.object.metadata?.resourceVersion
        if (rv) this.rv = rv
        if (event.type === 'BOOKMARK') continue
        if (event.type === 'DELETED') this.pods.delete(event.object.metadata.name)
        else this.apply(event.object, now)
      }
      this.wake()
    })
    ws.on('close', () => {
      if (!this.closed) void this.resume()
    })
  }

  private async resume(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        if (!this.rv) await this.relist()
        await this.connect()
        return
      } catch {
        this.rv = ''
        await sleep(Math.min(2_000, 100 * 2 ** attempt))
      }
    }
  }

  private apply(p: PodObject, now: number): void {
    const name = p.metadata.name
    const prev = this.pods.get(name)
    const view: PodView = {
      name,
      nodeName: p.spec?.nodeName,
      phase: p.status?.phase,
      deleting: Boolean(p.metadata.deletionTimestamp),
      boundAt: prev?.boundAt,
      runningAt: prev?.runningAt,
    }
    if (view.nodeName && view.boundAt === undefined) view.boundAt = now
    if (view.phase === 'Running' && view.runningAt === undefined) view.runningAt = now
    this.pods.set(name, view)
  }

  private wake(): void {
    for (const w of [...this.waiters]) w()
  }
}
