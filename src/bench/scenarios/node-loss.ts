import { PodTracker, type SimAgent } from '../cluster'
import type { ControlPlane } from '../control-plane'
import type { HttpClient } from '../http-client'
import type { WorkloadSizes } from '../options'
import { progress } from '../progress'
import { create, createNamespace, deploymentJson, running } from './objects'
import { expectStatus } from './series'

export interface NodeLossResult {
  pods: number
  spareNodes: number
  gracePeriodSeconds: number
  tolerationSeconds: number
  /** Agent killed → every replica Running on another node. */
  seconds: number
  /** Agent killed → the first of its pods marked for deletion (the eviction). */
  firstEvictionSeconds?: number
}

/** The node monitor grace period of the node-loss cluster (EDGEPLANE_NODE_MONITOR_GRACE_PERIOD). */
export const GRACE_PERIOD_SECONDS = 4
const TOLERATION_SECONDS = 2
/** Lease renewal in the node-loss cluster: well inside the 4 s grace period, as kubelet keeps a quarter. */
export const LOSS_LEASE_SECONDS = 1
export const LOSS_NODE = 'doomed'

async function setUnschedulable(
  client: HttpClient,
  node: string,
  unschedulable: boolean,
): Promise<void> {
  const res = await client.request(
    'PATCH',
    `/api/v1/nodes/${node}`,
    JSON.stringify({ spec: { unschedulable } }),
    { 'content-type': 'application/merge-patch+json' },
  )
  expectStatus(res, 200)
}

/**
 * Every replica on one node (the others cordoned while they are placed), then that node's agent
 * is killed with its whole process group: the time until all replicas run elsewhere again.
 */
export async function nodeLossScenario(
  client: HttpClient,
  cp: ControlPlane,
  agents: SimAgent[],
  s: WorkloadSizes,
): Promise<NodeLossResult> {
  const ns = 'bench-node-loss'
  const name = 'survivor'
  const doomed = agents.find((a) => a.nodeNames.includes(LOSS_NODE))!
  const spares = agents.filter((a) => a !== doomed).flatMap((a) => a.nodeNames)
  await createNamespace(client, ns)
  for (const n of spares) await setUnschedulable(client, n, true)
  const pods = await PodTracker.start(client, cp, ns)
  try {
    const tolerations = ['node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'].map(
      (key) => ({
        key,
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: TOLERATION_SECONDS,
      }),
    )
    await create(
      client,
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentJson(name, ns, s.lossPods, { tolerations }),
    )
    await pods.until(
      `${s.lossPods} pods Running on ${LOSS_NODE}`,
      () => pods.live().filter((p) => running(p) && p.nodeName === LOSS_NODE).length >= s.lossPods,
      s.waitMs,
    )
    for (const n of spares) await setUnschedulable(client, n, false)
    progress(`  node loss: ${s.lossPods} pods Running on ${LOSS_NODE}; killing its agent`)
    const t0 = performance.now()
    doomed.crash()
    let firstEviction: number | undefined
    await pods.until(
      `${s.lossPods} replicas Running on other nodes`,
      () => {
        if (
          firstEviction === undefined &&
          [...pods.pods.values()].some((p) => p.nodeName === LOSS_NODE && p.deleting)
        )
          firstEviction = performance.now()
        return (
          pods.live().filter((p) => running(p) && p.nodeName !== LOSS_NODE).length >= s.lossPods
        )
      },
      s.waitMs,
    )
    const seconds = (performance.now() - t0) / 1000
    const firstEvictionSeconds =
      firstEviction === undefined ? undefined : (firstEviction - t0) / 1000
    progress(
      `  node loss: all ${s.lossPods} replicas Running elsewhere after ${seconds.toFixed(1)} s (first eviction seen after ${firstEvictionSeconds?.toFixed(1) ?? '?'} s)`,
    )
    return {
      pods: s.lossPods,
      spareNodes: spares.length,
      gracePeriodSeconds: GRACE_PERIOD_SECONDS,
      tolerationSeconds: TOLERATION_SECONDS,
      seconds,
      firstEvictionSeconds,
    }
  } finally {
    pods.close()
  }
}
