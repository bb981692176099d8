import Docker from 'dockerode'
import { join } from 'node:path'
import { findSocket } from '../../agent/runtime/docker/socket'
import { nodeNetworkName } from '../../agent/runtime/docker/network'
import { PodTracker } from '../cluster'
import { startControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import { runLoad } from '../load'
import { spawnGroup } from '../procs'
import { errorText, progress } from '../progress'
import { REPO_ROOT } from '../repo'
import { percentiles, type Percentiles } from '../stats'
import { waitUntil } from '../wait'
import { createNamespace } from './objects'
import { expectStatus } from './series'
import type { Outcome } from './outcome'

/** The local image the docker runtime starts (built by .ci/containers.sh); no registry is involved. */
export const BENCH_IMAGE = process.env.EDGEPLANE_BENCH_IMAGE ?? 'localhost/busybox:test'
const NODE = 'bench-start'
const TIMEOUT_MS = 120_000

export interface PodStartResult {
  runtime: 'docker' | 'process'
  pods: number
  /** Pod POST sent → the pod seen Running through a watch, per pod. */
  latency: Percentiles
  engine?: string
}

export interface PodStartResults {
  docker: Outcome<PodStartResult>
  process: Outcome<PodStartResult>
}

/** Pod startup on one real node agent per runtime: the docker runtime (when an engine answers) and the process runtime. */
export async function podStartRun(count: number): Promise<PodStartResults> {
  const socket = await findSocket(undefined)
  let docker: Outcome<PodStartResult> = { error: 'no container engine answers on its socket' }
  if (socket) {
    const engine = new Docker({ socketPath: socket })
    const present = await engine
      .getImage(BENCH_IMAGE)
      .inspect()
      .then(
        () => true,
        () => false,
      )
    if (!present)
      docker = {
        error: `the engine on ${socket} has no image ${BENCH_IMAGE} (.ci/containers.sh builds it)`,
      }
    else
      docker = await attempt(() =>
        podStart(
          'docker',
          count,
          ['--container-socket', socket, '--pod-infra-image', BENCH_IMAGE],
          () => removeContainers(engine),
        ),
      )
  }
  const proc = await attempt(() => podStart('process', count, [], async () => {}))
  return { docker, process: proc }
}

async function attempt(run: () => Promise<PodStartResult>): Promise<Outcome<PodStartResult>> {
  try {
    return await run()
  } catch (err) {
    const error = errorText(err).split('\n')[0]!
    progress(`  pod start: failed: ${error}`)
    return { error }
  }
}

async function podStart(
  runtime: 'docker' | 'process',
  count: number,
  extra: string[],
  cleanup: () => Promise<void>,
): Promise<PodStartResult> {
  progress(`pod start: control plane and one ${runtime} node agent: starting`)
  const cp = await startControlPlane()
  const client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: 16 })
  const kubeconfig = join(cp.stateDir, 'kubeconfig')
  const agent = spawnGroup(
    `${runtime} agent`,
    process.execPath,
    [
      '--import',
      'tsx',
      'src/agent/cli.ts',
      '--kubeconfig',
      kubeconfig,
      '--name',
      NODE,
      '--runtime',
      runtime,
      ...extra,
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, EDGEPLANE_AGENT_STATE_DIR: join(cp.stateDir, 'agent') },
    },
  )
  try {
    await waitUntil(
      'the node Ready',
      async () => (await client.request('GET', `/api/v1/nodes/${NODE}`)).status === 200,
      { timeoutMs: 60_000, exited: agent.exited, output: agent.output },
    )
    const ns = `bench-start-${runtime}`
    await createNamespace(client, ns)
    const pods = await PodTracker.start(client, cp, ns)
    try {
      const sentAt = new Map<string, number>()
      await runLoad({
        concurrency: count,
        count,
        timeLimitMs: TIMEOUT_MS,
        request: async (i) => {
          sentAt.set(`p-${i}`, performance.now())
          return expectStatus(
            await client.request('POST', `/api/v1/namespaces/${ns}/pods`, podJson(`p-${i}`, ns)),
            201,
          )
        },
      })
      const running = await pods.until(
        `${count} pods Running`,
        () => {
          const all = pods.live()
          return all.length >= count && all.every((p) => p.runningAt !== undefined) && all
        },
        TIMEOUT_MS,
      )
      const latency = percentiles(running.map((p) => p.runningAt! - sentAt.get(p.name)!))
      progress(
        `  pod start (${runtime}): ${running.length} pods, p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms`,
      )
      await client.request('DELETE', `/api/v1/namespaces/${ns}/pods`)
      await pods
        .until('the pods gone', () => pods.live().length === 0, 60_000)
        .catch(() => progress('  pod start: note: not every pod was deleted in time'))
      return { runtime, pods: running.length, latency }
    } finally {
      pods.close()
    }
  } finally {
    await agent.stop()
    await cleanup()
    client.close()
    await cp.stop()
  }
}

function podJson(name: string, namespace: string): string {
  const container = {
    name: 'main',
    image: BENCH_IMAGE,
    imagePullPolicy: 'Never',
    command: ['sleep', '3600'],
  }
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { terminationGracePeriodSeconds: 0, containers: [container] },
  })
}

/** The bench node's containers, whatever the deletion left (the agent leaves containers running when it stops). */
async function removeContainers(engine: Docker): Promise<void> {
  const list = await engine.listContainers({
    all: true,
    filters: { label: [`io.edgeplane.node=${NODE}`] },
  })
  for (const c of list.sort((a) => (a.Labels['io.kubernetes.container.name'] === 'POD' ? 1 : -1)))
    await engine
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => {})
  // Its pod network too: another cluster's node on this engine may be given the same podCIDR.
  await engine
    .getNetwork(nodeNetworkName(NODE))
    .remove()
    .catch(() => {})
}
