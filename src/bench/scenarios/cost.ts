// The cost meter: a cluster of sim nodes on a strict-limits control plane, a Deployment rolled out
// onto it, then an idle window, each counted from GET /metrics as Cloudflare bills it.
import { PodTracker, startSimAgent, waitForReadyNodes, type SimAgent } from '../cluster'
import { startControlPlane, type ControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import type { BenchOptions, Mode } from '../options'
import { errorText, progress } from '../progress'
import { sleep } from '../wait'
import { marginalBill, usageOf, type Metered } from '../cost/bill'
import {
  isRequest,
  meteredOf,
  readUsage,
  rowsPerCompactedEvent,
  rowsRead,
  rowsWritten,
  usageBetween,
  type ObjectCounts,
  type UsageSnapshot,
} from '../cost/usage'
import { create, createNamespace, deploymentJson, running } from './objects'
import type { Outcome } from './outcome'

export interface CostSizes {
  nodes: number
  /** replicas of the Deployment rolled out before the idle window */
  pods: number
  windowMs: number
  /** bound on the nodes' readiness and on the rollout */
  waitMs: number
}

export const COST_SIZES: Record<Mode, CostSizes> = {
  // six minutes: compaction keeps five minutes of history, so the full run sees it delete log rows and measures what that writes
  full: { nodes: 100, pods: 1_000, windowMs: 360_000, waitMs: 240_000 },
  quick: { nodes: 100, pods: 200, windowMs: 60_000, waitMs: 120_000 },
  // a lease renewal of every node falls in the window: the agents renew every 10 s
  smoke: { nodes: 3, pods: 10, windowMs: 10_000, waitMs: 60_000 },
}

/** One object's part of the idle window. */
export interface ObjectLine {
  object: string
  requests: number
  rowsRead: number
  rowsWritten: number
  activeSeconds: number
  /** its entry points by calls, busiest first: `rpc:patch 600, alarm 1` */
  calls: string
}

export interface CostResult {
  nodes: number
  pods: number
  windowSeconds: number
  rolloutSeconds: number
  /** rows written per event row compaction deletes, measured over the run (null: no store compacted, no deletion charged) */
  rowsPerCompactedEvent: number | null
  /** the idle window, the agents' keepalives included */
  idle: Metered
  /** keepalive messages the agents sent the node gateways in the window: answered by the runtime, so the meter cannot see them; counted from the agents' 20 s ping */
  keepaliveMessages: number
  /** the rollout, less what the idle cluster does in as long */
  rollout: Metered
  leaseRenewals: number
  /** rows the leases store wrote in the window, its log's deletion included, and of those the renewals' own writes */
  leaseRowsWritten: number
  leaseRowsAtWrite: number
  /** rows the pods store wrote in the rollout, its log's deletion included */
  podsStoreRowsWritten: number
  /** the objects that wrote most in the idle window */
  busiestIdle: ObjectLine[]
  /** alarms that ran in the idle window: every store's and every controller host's, and per object that had any */
  idleAlarms: IdleAlarms
}

export interface IdleAlarms {
  kindStores: number
  controllerHosts: number
  byObject: Record<string, number>
}

const NS = 'bench-cost'
/** After the nodes are Ready and after the last replica is Running: the writes that follow belong to what came before. */
const SETTLE_MS = 5_000
/** The agent pings its node's gateway this often (src/agent/tunnel.ts); the runtime answers without waking the object. */
const AGENT_PING_SECONDS = 20
const LEASES = 'KindStore coordination.k8s.io/leases'
const PODS = 'KindStore core/pods'

/**
 * A control plane of its own in strict-limits mode, sim nodes, a Deployment rolled out, then the
 * idle window. Compaction keeps 5 minutes of history: a run shorter than that (quick, smoke)
 * compacts nothing, and its rows written leave out what deleting its log rows will cost
 * (`rowsPerCompactedEvent` is null).
 */
export async function costRun(o: BenchOptions): Promise<Outcome<CostResult>> {
  const s = COST_SIZES[o.mode]
  progress(
    `cost: strict-limits control plane, ${s.nodes} sim node(s), a ${s.pods}-replica rollout, then ${s.windowMs / 1000} s idle`,
  )
  let cp: ControlPlane | undefined
  let client: HttpClient | undefined
  let agent: SimAgent | undefined
  try {
    cp = await startControlPlane({ EDGEPLANE_STRICT_LIMITS: 'true' })
    client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: o.concurrency })
    agent = await startSimAgent(cp, { name: 'cost', nodes: s.nodes })
    await waitForReadyNodes(client, agent.nodeNames, [agent], s.waitMs)
    await createNamespace(client, NS)
    await sleep(SETTLE_MS)

    const start = await readUsage(client)
    const tracker = await PodTracker.start(client, cp, NS)
    try {
      await create(
        client,
        `/apis/apps/v1/namespaces/${NS}/deployments`,
        deploymentJson('cost', NS, s.pods),
      )
      await tracker.until(
        `${s.pods} pods Running`,
        () => tracker.live().filter(running).length >= s.pods,
        s.waitMs,
      )
    } finally {
      tracker.close()
    }
    await sleep(SETTLE_MS)
    const converged = await readUsage(client)
    progress(
      `  cost: ${s.pods} replicas Running in ${((converged.atMs - start.atMs) / 1000 - SETTLE_MS / 1000).toFixed(1)} s; idle for ${s.windowMs / 1000} s`,
    )

    for (let left = s.windowMs; left > 0; left -= 30_000) {
      await sleep(Math.min(left, 30_000))
      if (left > 30_000)
        progress(`  cost: ${(s.windowMs - left + 30_000) / 1000} of ${s.windowMs / 1000} s idle`)
    }
    const end = await readUsage(client)
    const result = summarize(s, start, converged, end)
    progress(
      `  cost: idle ${result.leaseRenewals} lease renewals, ${(result.leaseRowsWritten / Math.max(1, result.leaseRenewals)).toFixed(1)} rows written each; rollout ${(result.rollout.rowsWritten / s.pods).toFixed(1)} rows written per pod`,
    )
    return result
  } catch (err) {
    const error = errorText(err).split('\n')[0]!
    progress(`  cost: failed: ${error}`)
    return { error }
  } finally {
    await agent?.stop().catch(() => {})
    client?.close()
    await cp?.stop()
  }
}

/** The figures of the three reads: before the rollout, once it converged, after the idle window. */
export function summarize(
  s: CostSizes,
  start: UsageSnapshot,
  converged: UsageSnapshot,
  end: UsageSnapshot,
): CostResult {
  const perEvent = rowsPerCompactedEvent(end)
  const charge = perEvent ?? 0
  const idle = usageBetween(converged, end)
  const roll = usageBetween(start, converged)
  const idleCounted = meteredOf(idle, charge)
  const keepaliveMessages = (s.nodes * idle.seconds) / AGENT_PING_SECONDS
  // The rollout less the idle rate over its duration; its stored bytes are what it added.
  const share = roll.seconds / idle.seconds
  const rolled = meteredOf(roll, charge)
  const rollout = Object.fromEntries(
    Object.entries(rolled).map(([k, v]) => [
      k,
      Math.max(0, v - idleCounted[k as keyof Metered] * share),
    ]),
  ) as unknown as Metered
  rollout.storedBytes = Math.max(
    0,
    meteredOf(converged, 0).storedBytes - meteredOf(start, 0).storedBytes,
  )

  const leases = idle.objects.get(LEASES)
  const pods = roll.objects.get(PODS)
  return {
    nodes: s.nodes,
    pods: s.pods,
    windowSeconds: idle.seconds,
    rolloutSeconds: roll.seconds,
    rowsPerCompactedEvent: perEvent,
    idle: { ...idleCounted, wsMessages: idleCounted.wsMessages + keepaliveMessages },
    keepaliveMessages,
    rollout,
    leaseRenewals: renewals.reduce((n, e) => n + (leases?.entries[e]?.calls ?? 0), 0),
    leaseRowsWritten: leases ? rowsWritten(leases, charge) : 0,
    leaseRowsAtWrite: renewals.reduce((n, e) => n + (leases?.entries[e]?.rowsWritten ?? 0), 0),
    podsStoreRowsWritten: pods ? rowsWritten(pods, charge) : 0,
    busiestIdle: busiest(idle.objects, charge),
    idleAlarms: alarmsOf(idle.objects),
  }
}

/** The leases store's entry points a renewal arrives by: a PATCH, or a message on a node's heartbeat stream. */
const renewals = ['rpc:patch', 'ws:message']

/** The alarms each object ran in a difference, added up by class. */
function alarmsOf(objects: Map<string, ObjectCounts>): IdleAlarms {
  const a: IdleAlarms = { kindStores: 0, controllerHosts: 0, byObject: {} }
  for (const [object, c] of objects) {
    const n = c.entries.alarm?.calls ?? 0
    if (n <= 0) continue
    a.byObject[object] = n
    if (object.startsWith('KindStore ')) a.kindStores += n
    else a.controllerHosts += n
  }
  return a
}

/** The objects whose idle usage costs most at the list rates (nothing included), busiest first. */
function busiest(objects: Map<string, ObjectCounts>, charge: number): ObjectLine[] {
  const lines = [...objects].map(
    ([object, c]): ObjectLine => ({
      object,
      requests: Object.entries(c.entries).reduce(
        (n, [entry, e]) => n + (isRequest(entry) ? e.calls : 0),
        0,
      ),
      rowsRead: rowsRead(c),
      rowsWritten: rowsWritten(c, charge),
      activeSeconds: c.activeSeconds,
      calls: Object.entries(c.entries)
        .filter(([, e]) => e.calls > 0)
        .sort((a, b) => b[1].calls - a[1].calls)
        .slice(0, 4)
        .map(([entry, e]) => `${entry} ${e.calls}`)
        .join(', '),
    }),
  )
  const usd = (l: ObjectLine) =>
    marginalBill(
      usageOf({
        workerRequests: 0,
        doRequests: l.requests,
        wsMessages: 0,
        activeSeconds: l.activeSeconds,
        rowsRead: l.rowsRead,
        rowsWritten: l.rowsWritten,
        storedBytes: 0,
      }),
    ).usd
  return lines
    .filter((l) => l.requests > 0 || l.rowsWritten > 0)
    .sort((a, b) => usd(b) - usd(a))
    .slice(0, 8)
}
