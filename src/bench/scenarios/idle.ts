import type { ControlPlane } from '../control-plane'
import type { HttpClient } from '../http-client'
import { growth, readControllerMetrics } from '../metrics'
import type { WorkloadSizes } from '../options'
import { progress } from '../progress'
import { sleep } from '../wait'
import { convergeDeployment } from './objects'

export interface IdleResult {
  /** Replicas of the idle Deployment, and every pod in the cluster (earlier scenarios' included). */
  pods: number
  clusterPods: number
  nodes: number
  windowSeconds: number
  /** Alarms fired by all controller hosts in the window, per minute. */
  alarmsPerMinute: number
  /** Per controller, over the window: alarms fired, store notifications received, keys reconciled. */
  alarms: Record<string, number>
  notifications: Record<string, number>
  reconciles: Record<string, number>
}

/** Pause after convergence, so the last status writes and the passes they cause are not counted. */
const SETTLE_MS = 2_000
const PROGRESS_EVERY_MS = 5_000

/**
 * A Deployment converged over the sim nodes (every replica Running and available), then nothing
 * more is asked of the cluster: the controllers' alarms over an idle window, from `GET /metrics`
 * read before and after. Node heartbeats (leases, node status) go on as in any live cluster.
 */
export async function idleScenario(
  cp: ControlPlane,
  client: HttpClient,
  s: WorkloadSizes,
): Promise<IdleResult> {
  progress(`  idle: ${s.idlePods} replicas over ${s.nodes} nodes`)
  await convergeDeployment(cp, client, 'bench-idle', 'idle', s.idlePods, s.waitMs)
  await sleep(SETTLE_MS)

  const before = await readControllerMetrics(client)
  const t0 = performance.now()
  progress(`  idle: converged; counting controller alarms for ${s.idleWindowMs / 1000} s`)
  for (let left = s.idleWindowMs; left > 0; ) {
    const step = Math.min(left, PROGRESS_EVERY_MS)
    await sleep(step)
    left -= step
    if (left > 0) {
      const sofar = sum(
        growth(before, await readControllerMetrics(client), 'edgeplane_controller_alarms_total'),
      )
      progress(
        `  idle: ${((performance.now() - t0) / 1000).toFixed(0)} of ${s.idleWindowMs / 1000} s, ${sofar} alarms so far`,
      )
    }
  }
  const after = await readControllerMetrics(client)
  const windowSeconds = (performance.now() - t0) / 1000
  const alarms = growth(before, after, 'edgeplane_controller_alarms_total')
  const alarmsPerMinute = (sum(alarms) * 60) / windowSeconds
  const busiest = Object.entries(alarms)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
  progress(
    `  idle: ${sum(alarms)} alarms in ${windowSeconds.toFixed(1)} s = ${alarmsPerMinute.toFixed(1)}/min (${busiest.join(', ') || 'none'})`,
  )
  return {
    pods: s.idlePods,
    clusterPods: await countPods(client),
    nodes: s.nodes,
    windowSeconds,
    alarmsPerMinute,
    alarms,
    notifications: growth(before, after, 'edgeplane_controller_notifications_total'),
    reconciles: growth(before, after, 'edgeplane_controller_reconciles_total'),
  }
}

async function countPods(client: HttpClient): Promise<number> {
  const res = await client.expectOk('GET', '/api/v1/pods')
  return (JSON.parse(res.body) as { items: unknown[] }).items.length
}

function sum(values: Record<string, number>): number {
  return Object.values(values).reduce((a, b) => a + b, 0)
}
