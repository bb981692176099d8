// `npm run bench -- --scale N`: one cluster grown to N pods under strict limits, then a rollout
// and a namespace deletion on top of it, with the production-limit figures of each step.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PodTracker, startSimAgent, waitForReadyNodes, type SimAgent } from '../cluster'
import { startControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import { againstHalfLimits, readLimitFigures, type LimitReadings } from '../limit-figures'
import { runLoad } from '../load'
import type { BenchOptions } from '../options'
import { configMapJson } from '../payload'
import { errorText, progress } from '../progress'
import { sleep } from '../wait'
import { convergeDeployment, create, createNamespace, running } from './objects'
import { expectStatus } from './series'

/** Bytes of request JSON of every pod of the first step. */
export const SCALE_POD_BYTES = 4096

/**
 * Where node IPAM cuts the nodes' pod CIDRs from: the default /16 holds 256 nodes' /24s, and a node
 * with none starts no pod. This /9 holds 32,768, and stays clear of the service range (10.96.0.0/12).
 */
export const SCALE_CLUSTER_CIDR = '10.128.0.0/9'

export interface ScaleStep {
  /** time from the step's first request until it converged */
  seconds: number
  /** the limit figures of the whole control plane at the end of the step (they only grow) */
  limits: LimitReadings
  error?: string
}

export interface ScaleResult {
  pods: number
  nodes: number
  rolloutReplicas: number
  namespaceObjects: number
  steps: { pods: ScaleStep; rollout: ScaleStep; namespaceDelete: ScaleStep }
  /** the figures at the end against half of each production limit */
  verdict: ReturnType<typeof againstHalfLimits>
  limits_exceeded: number
  /** the largest host cache at the end of the first step, per pod */
  cache_bytes_per_pod: number
  /** every host's largest cache added up at the end of the first step, per pod */
  all_hosts_cache_bytes_per_pod: number
}

/** A pod of SCALE_POD_BYTES of JSON: its container's environment is filled to size, as real pods carry configuration. */
export function scalePodJson(name: string, namespace: string): string {
  const pod = (value: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, labels: { app: 'scale' } },
      spec: { containers: [{ name: 'main', image: 'busybox', env: [{ name: 'CONFIG', value }] }] },
    })
  const fill = SCALE_POD_BYTES - Buffer.byteLength(pod(''))
  return pod('c'.repeat(Math.max(0, fill)))
}

const count = (done: number, of: number, what: string) => progress(`    ${done}/${of} ${what}`)

/**
 * N pods of ~4 KB over N/100 sim nodes with every controller running; then a Deployment of N/10
 * replicas rolled out; then a namespace holding N/4 objects deleted. The control plane runs in
 * strict-limits mode, so every figure is what the production limits are held against.
 */
export async function scaleRun(o: BenchOptions, n: number): Promise<ScaleResult> {
  const nodes = Math.max(1, Math.round(n / 100))
  const rolloutReplicas = Math.max(1, Math.round(n / 10))
  const namespaceObjects = Math.max(1, Math.round(n / 4))
  const stepMs = Math.max(120_000, n * 240)
  progress(
    `scale: ${n} pods over ${nodes} sim nodes, a ${rolloutReplicas}-replica rollout, a namespace of ${namespaceObjects} objects deleted (each step bounded by ${stepMs / 1000} s)`,
  )
  const cp = await startControlPlane({
    EDGEPLANE_STRICT_LIMITS: 'true',
    CLUSTER_CIDR: SCALE_CLUSTER_CIDR,
  })
  const client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: o.concurrency })
  const agents: SimAgent[] = []
  try {
    agents.push(await startSimAgent(cp, { name: 'scale', nodes }))
    await waitForReadyNodes(client, agents[0]!.nodeNames, agents, 120_000)
    progress(`  ${nodes} nodes Ready`)

    const step = async (label: string, run: () => Promise<void>): Promise<ScaleStep> => {
      const t0 = performance.now()
      let error: string | undefined
      try {
        await run()
      } catch (err) {
        error = errorText(err).split('\n')[0]
        progress(`  ${label}: failed: ${error}`)
      }
      const seconds = (performance.now() - t0) / 1000
      const limits = await readLimitFigures(client)
      progress(`  ${label}: ${seconds.toFixed(1)} s; ${JSON.stringify(limits)}`)
      return { seconds, limits, ...(error ? { error } : {}) }
    }

    const podsStep = await step(`${n} pods Running`, async () => {
      const ns = 'scale-pods'
      await createNamespace(client, ns)
      const pods = await PodTracker.start(client, cp, ns)
      const t0 = performance.now()
      try {
        const created = await runLoad({
          concurrency: 16,
          count: n,
          timeLimitMs: stepMs,
          request: async (i) =>
            expectStatus(
              await client.request(
                'POST',
                `/api/v1/namespaces/${ns}/pods`,
                scalePodJson(`p-${i}`, ns),
              ),
              201,
            ),
          onProgress: (done) => count(done, n, 'pods created'),
        })
        if (created.errors)
          progress(`  ${created.errors} creates failed (first: ${created.firstError})`)
        let last = 0
        await pods.until(
          `${created.ok} pods Running`,
          () => {
            const up = pods.live().filter(running).length
            if (up - last >= n / 10) count((last = up), created.ok, 'pods Running')
            return up >= created.ok
          },
          Math.max(10_000, stepMs - (performance.now() - t0)),
        )
      } finally {
        pods.close()
      }
    })
    const cacheBytesPerPod = podsStep.limits.max_cache_bytes_per_host / n

    const rollout = await step(`${rolloutReplicas}-replica rollout`, async () => {
      await convergeDeployment(cp, client, 'scale-rollout', 'rollout', rolloutReplicas, stepMs)
    })

    const namespaceDelete = await step(
      `namespace of ${namespaceObjects} objects deleted`,
      async () => {
        const ns = 'scale-doomed'
        await createNamespace(client, ns)
        const made = await runLoad({
          concurrency: 16,
          count: namespaceObjects,
          timeLimitMs: stepMs,
          request: async (i) =>
            create(client, `/api/v1/namespaces/${ns}/configmaps`, configMapJson(`cm-${i}`, ns)),
        })
        if (made.ok < namespaceObjects)
          throw new Error(
            `only ${made.ok} of ${namespaceObjects} objects created (${made.firstError})`,
          )
        const t0 = performance.now()
        expectStatus(await client.request('DELETE', `/api/v1/namespaces/${ns}`), 200, 202)
        for (;;) {
          const res = await client.request('GET', `/api/v1/namespaces/${ns}`)
          if (res.status === 404) break
          if (performance.now() - t0 > stepMs)
            throw new Error(`namespace ${ns} still there after ${stepMs / 1000} s`)
          await sleep(250)
        }
        progress(
          `  namespace gone ${((performance.now() - t0) / 1000).toFixed(1)} s after its DELETE`,
        )
      },
    )

    const end = namespaceDelete.limits
    return {
      pods: n,
      nodes,
      rolloutReplicas,
      namespaceObjects,
      steps: { pods: podsStep, rollout, namespaceDelete },
      verdict: againstHalfLimits(end),
      limits_exceeded: end.limits_exceeded,
      cache_bytes_per_pod: Math.round(cacheBytesPerPod),
      all_hosts_cache_bytes_per_pod: Math.round(podsStep.limits.sum_cache_bytes_all_hosts / n),
    }
  } finally {
    await Promise.allSettled(agents.map((a) => a.stop()))
    client.close()
    await cp.stop()
  }
}

/** Writes scale.json into `dir` and prints the figures. */
export async function writeScaleReport(dir: string, result: ScaleResult): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, 'scale.json')
  await writeFile(path, JSON.stringify(result, null, 2) + '\n')
  const rows = Object.entries(result.verdict).map(
    ([k, v]) => `| ${k} | ${v.value} | ${v.half_limit} | ${v.within ? 'yes' : 'NO'} |`,
  )
  const steps = Object.entries(result.steps).map(
    ([k, s]) => `| ${k} | ${s.seconds.toFixed(1)} s${s.error ? ` (failed: ${s.error})` : ''} |`,
  )
  console.log(
    [
      '',
      `scale: ${result.pods} pods over ${result.nodes} nodes`,
      '| step | converged in |',
      '|---|---|',
      ...steps,
      '',
      '| figure | value | half the production limit | within |',
      '|---|---|---|---|',
      ...rows,
      '',
      `limits exceeded: ${result.limits_exceeded}; largest host cache per pod: ${result.cache_bytes_per_pod} bytes; every host's together: ${result.all_hosts_cache_bytes_per_pod} bytes`,
    ].join('\n'),
  )
  return path
}
