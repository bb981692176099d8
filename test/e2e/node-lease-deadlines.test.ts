import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { sleep, waitFor } from './helpers/wait'
import { parseControllerMetrics } from '../../src/bench/metrics'

/** The node monitor grace period here; the agents renew their leases every second. */
const GRACE_SECONDS = 4
const NODES = ['quiet-a', 'quiet-b', 'quiet-c']

let server: TestServer
const agents: AgentProcess[] = []
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

/** Node lifecycle's counters, as `GET /metrics` reports them. */
async function nodeLifecycle(): Promise<{ notifications: number; passes: number }> {
  const raw = await kubectl(['get', '--raw', '/metrics'], { kubeconfig: server.kubeconfig })
  expect(raw.code).toBe(0)
  const row = parseControllerMetrics(raw.stdout).get('node-lifecycle') ?? {}
  return {
    notifications: row.edgeplane_controller_notifications_total ?? 0,
    passes: row.edgeplane_controller_reconcile_passes_total ?? 0,
  }
}

const readyOf = (n: any) => n.status?.conditions?.find((c: any) => c.type === 'Ready')?.status

beforeAll(async () => {
  server = await startServer({
    env: { EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(GRACE_SECONDS) },
  })
  for (const name of NODES)
    agents.push(
      startAgent(server.kubeconfig, ['--name', name, '--runtime', 'sim', '--lease-seconds', '1']),
    )
  await waitFor(
    async () => {
      const nodes = (await json(['get', 'nodes'])).items
      return nodes.length === NODES.length && nodes.every((n: any) => readyOf(n) === 'True')
    },
    { what: 'every node Ready', timeoutMs: 30_000 },
  )
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('node leases: renewals wake no controller, a lapse does', () => {
  it('renewals of healthy leases cost node lifecycle no notification and no pass', async () => {
    // Settle: the passes the nodes' registration asked for run first (a node looked at before its
    // lease existed is looked at again once its Ready heartbeat is a grace period old).
    await waitFor(
      async () => {
        const before = await nodeLifecycle()
        await sleep((GRACE_SECONDS + 1) * 1000)
        const after = await nodeLifecycle()
        return after.passes === before.passes && after.notifications === before.notifications
      },
      { what: 'node lifecycle quiet', timeoutMs: 60_000 },
    )
    const renewTimes = async () =>
      (await json(['get', 'leases', '-n', 'kube-node-lease'])).items.map(
        (l: any) => l.spec.renewTime,
      )
    const before = await nodeLifecycle()
    const renewedBefore = await renewTimes()
    // Two grace periods: as long as a node must stay silent to be marked Unknown, twice over.
    await sleep(2 * GRACE_SECONDS * 1000)
    const renewedAfter = await renewTimes()
    const after = await nodeLifecycle()
    expect(renewedAfter).toHaveLength(NODES.length)
    renewedAfter.forEach((t: string, i: number) => expect(t > renewedBefore[i]).toBe(true))
    expect(after).toEqual(before)
    const nodes = (await json(['get', 'nodes'])).items
    expect(nodes.map(readyOf)).toEqual(NODES.map(() => 'True'))
  })

  it('a node whose heartbeats stop is marked Unknown within the grace period, its lease announced by its store', async () => {
    const before = await nodeLifecycle()
    const stoppedAt = Date.now()
    await agents[0]!.stop()
    await waitFor(async () => readyOf(await json(['get', 'node', NODES[0]!])) === 'Unknown', {
      what: `${NODES[0]} Unknown`,
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    expect(Date.now() - stoppedAt).toBeLessThan((GRACE_SECONDS + 3) * 1000)
    const after = await nodeLifecycle()
    expect(after.notifications).toBeGreaterThan(before.notifications)
    const others = await Promise.all(NODES.slice(1).map((n) => json(['get', 'node', n])))
    expect(others.map(readyOf)).toEqual(['True', 'True'])
  })
})
