import { PodTracker, startSimAgent, waitForReadyNodes, type SimAgent } from '../cluster'
import { startControlPlane, type ControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import { readControllerMetrics } from '../metrics'
import { runLoad } from '../load'
import type { BenchOptions, WorkloadSizes } from '../options'
import { errorText, progress } from '../progress'
import { percentiles, type Percentiles } from '../stats'
import { idleScenario, type IdleResult } from './idle'
import { podStartRun, type PodStartResults } from './pod-start'
import type { Outcome } from './outcome'
import {
  convergeDeployment,
  create,
  createNamespace,
  deploymentJson,
  podJson,
  running,
  waitForAvailable,
} from './objects'
import { expectStatus } from './series'
import {
  GRACE_PERIOD_SECONDS,
  LOSS_LEASE_SECONDS,
  LOSS_NODE,
  nodeLossScenario,
  type NodeLossResult,
} from './node-loss'

export interface ScheduleResult {
  pods: number
  nodes: number
  /** First create sent → last pod seen with spec.nodeName. */
  seconds: number
  podsPerSecond: number
  /** The creates alone, so the binding rate can be told apart from the API's create rate. */
  createSeconds: number
  createErrors: number
  /** the first failed create's error, when one failed */
  createFirstError?: string
}

export interface DeployResult {
  replicas: number
  nodes: number
  /** Deployment created → every pod Running and status.availableReplicas = replicas, observed. */
  seconds: number
  /** Deployment created → every pod Running, as the pods' own events showed it. */
  podsRunningSeconds: number
}

export interface ReplaceResult {
  replicas: number
  trials: number
  failed: number
  /** Pod DELETE sent → a new pod of the same Deployment seen Running; failed trials count as the timeout. */
  latency: Percentiles
}

export interface WorkloadResult {
  sizes: WorkloadSizes
  schedule: Outcome<ScheduleResult>
  deploy: Outcome<DeployResult>
  replace: Outcome<ReplaceResult>
  nodeLoss: Outcome<NodeLossResult>
  idle: Outcome<IdleResult>
  /** Pod startup on a real node agent, docker runtime and process runtime */
  podStart: PodStartResults
  /** Controllers run by every control plane: the idle goal is per controller. */
  controllers: number
}

/**
 * The workload scenarios, once per run: scheduling, a large Deployment, pod replacement, the
 * controllers' alarms in an idle converged cluster and a node loss, each against simulated node
 * agents on their own control plane. Each scenario that fails or times out is reported with its
 * reason; the others still run.
 */
export async function workloadRun(o: BenchOptions, s: WorkloadSizes): Promise<WorkloadResult> {
  let schedule: Outcome<ScheduleResult> = { error: 'not run' }
  let deploy: Outcome<DeployResult> = { error: 'not run' }
  let replace: Outcome<ReplaceResult> = { error: 'not run' }
  let idle: Outcome<IdleResult> = { error: 'not run' }

  let nodeLoss: Outcome<NodeLossResult> = { error: 'not run' }
  /** how many controllers the control plane runs, as its /metrics lists them */
  let controllers = 0
  const lossEnv = { EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(GRACE_PERIOD_SECONDS) }
  const lossAgents = (spares: { name: string; nodes: number }) => [
    { ...spares, leaseSeconds: LOSS_LEASE_SECONDS },
    { name: LOSS_NODE, nodes: 1, leaseSeconds: LOSS_LEASE_SECONDS },
  ]
  const failed = (err: unknown) => {
    const error = `cluster failed: ${errorText(err).split('\n')[0]}`
    progress(`  workload: ${error}`)
    for (const r of [schedule, deploy, replace, idle, nodeLoss])
      if ('error' in r && r.error === 'not run') r.error = error
  }

  if (s.oneCluster) {
    progress(
      `workload: control plane (grace period ${GRACE_PERIOD_SECONDS} s) and ${s.nodes + 1} simulated nodes: starting`,
    )
    await withCluster(
      o,
      s,
      lossEnv,
      lossAgents({ name: 'sim', nodes: s.nodes }),
      async (cp, client, agents) => {
        controllers = (await readControllerMetrics(client)).size
        schedule = await attempt('schedule', () => scheduleScenario(cp, client, s))
        deploy = await attempt('deploy', () => deployScenario(cp, client, s))
        replace = await attempt('pod replace', () => replaceScenario(cp, client, s))
        idle = await attempt('idle', () => idleScenario(cp, client, s))
        nodeLoss = await attempt('node loss', () => nodeLossScenario(client, cp, agents, s))
      },
    ).catch(failed)
  } else {
    progress(`workload: control plane and ${s.nodes} simulated nodes: starting`)
    await withCluster(o, s, {}, [{ name: 'sim', nodes: s.nodes }], async (cp, client) => {
      controllers = (await readControllerMetrics(client)).size
      schedule = await attempt('schedule', () => scheduleScenario(cp, client, s))
      deploy = await attempt('deploy', () => deployScenario(cp, client, s))
      replace = await attempt('pod replace', () => replaceScenario(cp, client, s))
      idle = await attempt('idle', () => idleScenario(cp, client, s))
    }).catch(failed)
    // Its own control plane: a 4 s grace period needs 1 s leases, which at 100 nodes would load the others.
    progress(
      `workload: node loss: control plane (grace period ${GRACE_PERIOD_SECONDS} s) and ${s.lossSpareNodes + 1} simulated nodes: starting`,
    )
    await withCluster(
      o,
      s,
      lossEnv,
      lossAgents({ name: 'spare', nodes: s.lossSpareNodes }),
      async (cp, client, agents) => {
        nodeLoss = await attempt('node loss', () => nodeLossScenario(client, cp, agents, s))
      },
    ).catch(failed)
  }

  const podStart = await podStartRun(s.startPods)
  return { sizes: s, schedule, deploy, replace, nodeLoss, idle, podStart, controllers }
}

/** A fresh control plane with sim agents whose nodes are all Ready; everything is stopped afterwards. */
async function withCluster(
  o: BenchOptions,
  s: WorkloadSizes,
  env: Record<string, string>,
  agentSpecs: { name: string; nodes: number; leaseSeconds?: number }[],
  body: (cp: ControlPlane, client: HttpClient, agents: SimAgent[]) => Promise<void>,
): Promise<void> {
  const cp = await startControlPlane(env)
  const client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: o.concurrency })
  const agents: SimAgent[] = []
  try {
    agents.push(...(await Promise.all(agentSpecs.map((spec) => startSimAgent(cp, spec)))))
    const t0 = performance.now()
    await waitForReadyNodes(
      client,
      agents.flatMap((a) => a.nodeNames),
      agents,
      s.readyTimeoutMs,
    )
    progress(
      `  ${agents.reduce((n, a) => n + a.nodeNames.length, 0)} nodes Ready after ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
    await body(cp, client, agents)
  } finally {
    // Agents first, by process group, so none of them keeps writing to a server that is going.
    await Promise.allSettled(agents.map((a) => a.stop()))
    client.close()
    await cp.stop()
  }
}

async function attempt<T>(label: string, run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return await run()
  } catch (err) {
    const error = errorText(err).split('\n')[0]!
    progress(`  ${label}: failed: ${error}`)
    return { error }
  }
}

/** Pending pods created through the API at c=16 onto Ready nodes; the rate at which they get bound. */
async function scheduleScenario(
  cp: ControlPlane,
  client: HttpClient,
  s: WorkloadSizes,
): Promise<ScheduleResult> {
  const ns = 'bench-schedule'
  await createNamespace(client, ns)
  const pods = await PodTracker.start(client, cp, ns)
  try {
    progress(`  schedule: creating ${s.schedulePods} pods at c=16`)
    const t0 = performance.now()
    const created = await runLoad({
      concurrency: 16,
      count: s.schedulePods,
      timeLimitMs: s.waitMs,
      request: async (i) =>
        expectStatus(
          await client.request('POST', `/api/v1/namespaces/${ns}/pods`, podJson(`p-${i}`, ns)),
          201,
        ),
    })
    if (created.ok === 0) throw new Error(`no pod was created (${created.firstError})`)
    const bound = await pods.until(
      `${created.ok} pods bound`,
      () => {
        const all = pods.live()
        return all.length >= created.ok && all.every((p) => p.boundAt !== undefined) && all
      },
      s.waitMs,
    )
    const last = Math.max(...bound.map((p) => p.boundAt!))
    const seconds = (last - t0) / 1000
    const result: ScheduleResult = {
      pods: bound.length,
      nodes: s.nodes,
      seconds,
      podsPerSecond: bound.length / seconds,
      createSeconds: created.elapsedMs / 1000,
      createErrors: created.errors,
      ...(created.firstError ? { createFirstError: String(created.firstError) } : {}),
    }
    progress(
      `  schedule: ${result.pods} pods bound in ${seconds.toFixed(1)} s = ${result.podsPerSecond.toFixed(0)} pods/s (creates took ${result.createSeconds.toFixed(1)} s)`,
    )
    // Not timed: the next scenario starts on a settled cluster, not during these pods' start-up.
    await pods
      .until('the scheduled pods Running', () => pods.live().every(running), s.waitMs)
      .catch(() => progress('  schedule: note: not every pod reached Running'))
    return result
  } finally {
    pods.close()
  }
}

async function deployScenario(
  cp: ControlPlane,
  client: HttpClient,
  s: WorkloadSizes,
): Promise<DeployResult> {
  progress(`  deploy: ${s.deployReplicas} replicas over ${s.nodes} nodes`)
  const { runningMs, availableMs } = await convergeDeployment(
    cp,
    client,
    'bench-deploy',
    'big',
    s.deployReplicas,
    s.waitMs,
  )
  const podsRunningSeconds = runningMs / 1000
  const seconds = availableMs / 1000
  progress(
    `  deploy: all Running after ${podsRunningSeconds.toFixed(1)} s, available in status after ${seconds.toFixed(1)} s`,
  )
  return { replicas: s.deployReplicas, nodes: s.nodes, seconds, podsRunningSeconds }
}

/** Sequential trials: delete one Running pod of a Deployment, time until a new one is Running. */
async function replaceScenario(
  cp: ControlPlane,
  client: HttpClient,
  s: WorkloadSizes,
): Promise<ReplaceResult> {
  const ns = 'bench-replace'
  const name = 'replace'
  await createNamespace(client, ns)
  const pods = await PodTracker.start(client, cp, ns)
  try {
    await create(
      client,
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentJson(name, ns, s.replaceReplicas),
    )
    await pods.until(
      `${s.replaceReplicas} pods Running`,
      () => pods.live().filter(running).length >= s.replaceReplicas,
      s.waitMs,
    )
    await waitForAvailable(client, ns, name, s.replaceReplicas, performance.now() + s.waitMs)
    progress(
      `  pod replace: ${s.replaceTrials} trials on a ${s.replaceReplicas}-replica Deployment`,
    )
    const samples: number[] = []
    let failed = 0
    for (let trial = 0; trial < s.replaceTrials; trial++) {
      const known = new Set(pods.pods.keys())
      const victim = pods.live().find(running)
      if (!victim) throw new Error(`no Running pod to delete in trial ${trial + 1}`)
      const t0 = performance.now()
      expectStatus(
        await client.request('DELETE', `/api/v1/namespaces/${ns}/pods/${victim.name}`),
        200,
        202,
      )
      try {
        const replacement = await pods.until(
          `a replacement for ${victim.name}`,
          () => pods.live().find((p) => !known.has(p.name) && running(p)),
          s.replaceTimeoutMs,
        )
        samples.push(replacement.runningAt! - t0)
      } catch {
        failed++
        samples.push(s.replaceTimeoutMs)
      }
      // Not timed: the next trial starts once the deleted pod is gone and the set is whole again.
      await pods
        .until(
          'the deleted pod gone and every replica Running',
          () =>
            !pods.pods.has(victim.name) && pods.live().filter(running).length >= s.replaceReplicas,
          10_000,
        )
        .catch(() => {})
    }
    const latency = percentiles(samples)
    progress(
      `  pod replace: p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms${failed ? `, ${failed} timed out` : ''}`,
    )
    return { replicas: s.replaceReplicas, trials: samples.length, failed, latency }
  } finally {
    pods.close()
  }
}
