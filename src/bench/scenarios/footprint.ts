// The controllers' footprint: what their caches hold per pod and how many store calls their passes
// make, read from GET /metrics of a control plane in strict-limits mode.
import { PodTracker, startSimAgent, waitForReadyNodes, type SimAgent } from '../cluster'
import { startControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import { controllerGauges, type ControllerGauge } from '../limit-figures'
import { runLoad } from '../load'
import type { BenchOptions } from '../options'
import { errorText, progress } from '../progress'
import { sleep } from '../wait'
import { createNamespace, running } from './objects'
import type { Outcome } from './outcome'
import { SCALE_POD_BYTES, scalePodJson } from './scale'
import { expectStatus } from './series'

export interface FootprintResult {
  pods: number
  nodes: number
  /** request JSON of each pod created */
  requestBytes: number
  /** a pod as the API serves it once Running (managedFields and status included), averaged over the pods */
  storedPodBytes: number
  /** the host whose controllers watch pods, and each host's largest cache growth over the pods' creation */
  podsHost: string
  cacheGrowthByHost: Record<string, number>
  /** per controller, the most store calls (subrequests) one of its passes made */
  passSubrequests: Record<string, number>
  /** production limits passed meanwhile, counted over every scope */
  limitsExceeded: number
}

const NS = 'bench-footprint'
/** After the last pod is Running: its status writes and the passes they cause are recorded by then. */
const SETTLE_MS = 3_000

/**
 * Pods of SCALE_POD_BYTES (most of it their container's environment, which no controller reads)
 * created at c=16 onto Ready sim nodes and started, on a control plane of its own in strict-limits
 * mode. Each host's cache is read before and after, so what the nodes and leases fill it with is
 * not counted against the pods.
 */
export async function footprintRun(
  o: BenchOptions,
  pods: number,
): Promise<Outcome<FootprintResult>> {
  const nodes = Math.max(1, Math.round(pods / 100))
  progress(
    `footprint: strict-limits control plane, ${nodes} sim node(s), ${pods} pods of ${SCALE_POD_BYTES} bytes`,
  )
  let cp: Awaited<ReturnType<typeof startControlPlane>> | undefined
  let client: HttpClient | undefined
  let agent: SimAgent | undefined
  try {
    cp = await startControlPlane({ EDGEPLANE_STRICT_LIMITS: 'true' })
    client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: o.concurrency })
    agent = await startSimAgent(cp, { name: 'footprint', nodes })
    await waitForReadyNodes(client, agent.nodeNames, [agent], o.workload?.readyTimeoutMs ?? 60_000)
    await sleep(SETTLE_MS)
    const before = await metricsText(client)

    await createNamespace(client, NS)
    const tracker = await PodTracker.start(client, cp, NS)
    try {
      const created = await runLoad({
        concurrency: 16,
        count: pods,
        timeLimitMs: o.workload?.waitMs ?? 60_000,
        request: async (i) =>
          expectStatus(
            await client!.request(
              'POST',
              `/api/v1/namespaces/${NS}/pods`,
              scalePodJson(`p-${i}`, NS),
            ),
            201,
          ),
      })
      if (created.ok < pods)
        throw new Error(`only ${created.ok} of ${pods} pods created (${created.firstError})`)
      await tracker.until(
        `${pods} pods Running`,
        () => tracker.live().filter(running).length >= pods,
        o.workload?.waitMs ?? 60_000,
      )
    } finally {
      tracker.close()
    }
    await sleep(SETTLE_MS)
    const after = await metricsText(client)
    const listed = JSON.parse(
      (await client.expectOk('GET', `/api/v1/namespaces/${NS}/pods`)).body,
    ) as { items: unknown[] }
    const storedPodBytes =
      listed.items.reduce<number>((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0) /
      listed.items.length

    const cacheGrowthByHost = growthByHost(
      controllerGauges(before, 'edgeplane_strict_max_cache_bytes'),
      controllerGauges(after, 'edgeplane_strict_max_cache_bytes'),
    )
    const passes = controllerGauges(after, 'edgeplane_strict_max_subrequests_per_invocation')
    const podsHost = passes.find((g) => g.controller === 'scheduler')?.host
    if (!podsHost) throw new Error('GET /metrics has no strict-limits series of the scheduler')
    const result: FootprintResult = {
      pods,
      nodes,
      requestBytes: Buffer.byteLength(scalePodJson('p-0', NS)),
      storedPodBytes,
      podsHost,
      cacheGrowthByHost,
      passSubrequests: Object.fromEntries(passes.map((g) => [g.controller, g.value])),
      limitsExceeded: exceeded(after),
    }
    progress(
      `  footprint: ${Math.round(storedPodBytes)} bytes per stored pod, ${Math.round((cacheGrowthByHost[podsHost] ?? 0) / pods)} per pod in the ${podsHost} host's cache`,
    )
    return result
  } catch (err) {
    const error = errorText(err).split('\n')[0]!
    progress(`  footprint: failed: ${error}`)
    return { error }
  } finally {
    await agent?.stop().catch(() => {})
    client?.close()
    await cp?.stop()
  }
}

async function metricsText(client: HttpClient): Promise<string> {
  const res = await client.request('GET', '/metrics', undefined, { accept: 'text/plain' })
  if (res.status !== 200)
    throw new Error(`GET /metrics answered ${res.status}: ${res.body.slice(0, 300)}`)
  return res.body
}

/** Per host, how much its largest cache grew (the controllers of one host each report that host's cache). */
function growthByHost(before: ControllerGauge[], after: ControllerGauge[]): Record<string, number> {
  const largest = (gauges: ControllerGauge[]) => {
    const out = new Map<string, number>()
    for (const g of gauges) out.set(g.host, Math.max(out.get(g.host) ?? 0, g.value))
    return out
  }
  const was = largest(before)
  return Object.fromEntries(
    [...largest(after)].map(([host, bytes]) => [host, Math.max(0, bytes - (was.get(host) ?? 0))]),
  )
}

function exceeded(text: string): number {
  let n = 0
  for (const line of text.split('\n'))
    if (line.startsWith('edgeplane_strict_limit_exceeded_total{'))
      n += Number(line.slice(line.lastIndexOf(' ') + 1))
  return n
}
