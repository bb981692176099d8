import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { deployment, namespace, stream, type Manifest } from './helpers/manifests'
import { parseTable } from './helpers/table'
import { waitFor } from './helpers/wait'

// Nodes are marked Unknown 4 s after their last heartbeat, so a stopped agent shows quickly.
const gracePeriodSeconds = 4
const LIVE_NODES = ['alpha', 'beta']

let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string, timeoutMs?: number) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin, timeoutMs })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

function sim(name: string): AgentProcess {
  const agent = startAgent(server.kubeconfig, [
    '--name',
    name,
    '--runtime',
    'sim',
    '--lease-seconds',
    '1',
  ])
  agents.push(agent)
  return agent
}

async function readyNodes(): Promise<string[]> {
  const nodes = await json(['get', 'nodes'])
  return nodes.items
    .filter((n: any) =>
      n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
    )
    .map((n: any) => n.metadata.name)
}

async function apply(...manifests: Manifest[]): Promise<void> {
  const res = await run(['apply', '-f', '-'], stream(...manifests))
  expect(res.code, res.stderr).toBe(0)
}

/** The rows of `kubectl get pods -l SELECTOR -o wide`, as a user reads them; none when nothing matches. */
async function podRows(selector: string, ns = 'default'): Promise<Record<string, string>[]> {
  const res = await run(['get', 'pods', '-n', ns, '-l', selector, '-o', 'wide'])
  if (res.code !== 0) throw new Error(`kubectl get pods exited ${res.code}: ${res.stderr}`)
  if (res.stdout.trim() === '') return []
  return parseTable(res.stdout).rows
}

/** Waits until exactly `count` pods of `selector` show Running (and none other than Terminating ones, if allowed). */
async function waitRunning(
  selector: string,
  count: number,
  opts: { ns?: string; timeoutMs?: number; allowTerminating?: boolean; nodes?: string[] } = {},
) {
  return waitFor(
    async () => {
      const rows = await podRows(selector, opts.ns)
      const running = rows.filter((r) => r.STATUS === 'Running' && r.READY === '1/1')
      const others = rows.filter(
        (r) => r.STATUS !== 'Running' && !(opts.allowTerminating && r.STATUS === 'Terminating'),
      )
      const placed = !opts.nodes || running.every((r) => opts.nodes!.includes(r.NODE!))
      // Thrown rather than returned, so a timeout names what the pods looked like last.
      if (running.length !== count || others.length > 0 || !placed)
        throw new Error(
          rows.map((r) => `${r.NAME} ${r.STATUS} ${r.READY} ${r.NODE}`).join('; ') || 'no pods',
        )
      return running
    },
    {
      what: `${count} Running pods for ${selector}`,
      timeoutMs: opts.timeoutMs ?? 45_000,
      intervalMs: 250,
    },
  )
}

async function rolloutStatus(name: string, ns = 'default'): Promise<void> {
  const res = await run(
    ['rollout', 'status', `deployment/${name}`, '-n', ns, '--timeout=45s'],
    undefined,
    50_000,
  )
  expect(res.code, `rollout status: ${res.stdout}\n${res.stderr}`).toBe(0)
  expect(res.stdout).toContain(`deployment "${name}" successfully rolled out`)
}

/** `kubectl get rs -l SELECTOR` rows, keyed by the ReplicaSet name. */
async function replicaSets(selector: string, ns = 'default'): Promise<Record<string, string>[]> {
  const res = await run(['get', 'rs', '-n', ns, '-l', selector])
  if (res.code !== 0) throw new Error(`kubectl get rs exited ${res.code}: ${res.stderr}`)
  if (res.stdout.trim() === '') return []
  return parseTable(res.stdout).rows
}

async function deploymentImage(name: string): Promise<string> {
  const res = await run([
    'get',
    'deployment',
    name,
    '-o',
    'jsonpath={.spec.template.spec.containers[0].image}',
  ])
  return res.stdout
}

const web = (replicas: number) =>
  deployment('web', { replicas, containers: [{ name: 'nginx', image: 'nginx:1.27' }] })

beforeAll(async () => {
  server = await startServer({
    env: { EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(gracePeriodSeconds) },
  })
  for (const name of LIVE_NODES) sim(name)
  await waitFor(async () => (await readyNodes()).length === 2, {
    what: 'two Ready nodes',
    timeoutMs: 30_000,
  })
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('deployments', () => {
  it('runs a 3-replica Deployment across both nodes and rollout status reports it rolled out', async () => {
    await apply(web(3))
    const running = await waitRunning('app=web', 3)
    expect(new Set(running.map((r) => r.NODE))).toEqual(new Set(LIVE_NODES))
    await rolloutStatus('web')
    const table = parseTable((await run(['get', 'deployment', 'web'])).stdout)
    expect(table.rows[0]).toMatchObject({
      NAME: 'web',
      READY: '3/3',
      'UP-TO-DATE': '3',
      AVAILABLE: '3',
    })
  })

  it('replaces a deleted pod', async () => {
    const before = await waitRunning('app=web', 3)
    const victim = before[0]!.NAME!
    expect((await run(['delete', 'pod', victim, '--wait=false'])).code).toBe(0)
    const after = await waitRunning('app=web', 3, { allowTerminating: true })
    expect(after.map((r) => r.NAME)).not.toContain(victim)
  })

  it('scales to 5 replicas', async () => {
    const res = await run(['scale', 'deployment/web', '--replicas=5'])
    expect(res.stdout).toContain('deployment.apps/web scaled')
    await waitRunning('app=web', 5, { allowTerminating: true })
    await rolloutStatus('web')
  })

  it('rolls out a new image, leaving the old ReplicaSet at 0, and keeps both revisions in history', async () => {
    const oldRs = (await replicaSets('app=web')).map((r) => r.NAME!)
    expect(oldRs).toHaveLength(1)
    expect((await run(['set', 'image', 'deployment/web', 'nginx=nginx:1.28'])).stdout).toContain(
      'deployment.apps/web image updated',
    )
    await rolloutStatus('web')
    const pods = await json(['get', 'pods', '-l', 'app=web'])
    const live = pods.items.filter((p: any) => !p.metadata.deletionTimestamp)
    expect(live).toHaveLength(5)
    expect(live.every((p: any) => p.spec.containers[0].image === 'nginx:1.28')).toBe(true)
    const rs = await replicaSets('app=web')
    expect(rs).toHaveLength(2)
    expect(rs.find((r) => r.NAME === oldRs[0])).toMatchObject({ DESIRED: '0', CURRENT: '0' })
    expect(rs.find((r) => r.NAME !== oldRs[0])).toMatchObject({ DESIRED: '5', READY: '5' })
    const history = await run(['rollout', 'history', 'deployment/web'])
    expect(history.code).toBe(0)
    expect(history.stdout).toMatch(/^1\s+<none>$/m)
    expect(history.stdout).toMatch(/^2\s+<none>$/m)
  })

  it('undoes the rollout back to the first image', async () => {
    const res = await run(['rollout', 'undo', 'deployment/web'])
    expect(res.stdout).toContain('deployment.apps/web rolled back')
    expect(await deploymentImage('web')).toBe('nginx:1.27')
    await rolloutStatus('web')
    const pods = await json(['get', 'pods', '-l', 'app=web'])
    const live = pods.items.filter((p: any) => !p.metadata.deletionTimestamp)
    expect(live.map((p: any) => p.spec.containers[0].image)).toEqual(Array(5).fill('nginx:1.27'))
    // The first template comes back as a new, higher revision.
    const history = await run(['rollout', 'history', 'deployment/web'])
    expect(history.stdout).toMatch(/^3\s+/m)
  })

  it('scales down when the manifest is re-applied with fewer replicas', async () => {
    await apply(web(2))
    await waitRunning('app=web', 2, { allowTerminating: true })
    await rolloutStatus('web')
    // rollout status may finish while the status still counts the pods being scaled away (as
    // upstream's does): the READY column catches up on the next status write.
    await waitFor(
      async () =>
        parseTable((await run(['get', 'deployment', 'web'])).stdout).rows[0]?.READY === '2/2',
      { what: 'READY 2/2', timeoutMs: 30_000 },
    )
  })

  it('rolls a new ReplicaSet on rollout restart', async () => {
    const before = new Set((await replicaSets('app=web')).map((r) => r.NAME))
    expect((await run(['rollout', 'restart', 'deployment/web'])).stdout).toContain(
      'deployment.apps/web restarted',
    )
    await rolloutStatus('web')
    const rs = await replicaSets('app=web')
    const fresh = rs.filter((r) => !before.has(r.NAME))
    expect(fresh).toHaveLength(1)
    expect(fresh[0]).toMatchObject({ DESIRED: '2', READY: '2' })
    expect(rs.filter((r) => before.has(r.NAME)).every((r) => r.DESIRED === '0')).toBe(true)
    await waitRunning('app=web', 2, { allowTerminating: true })
  })

  it('moves the pods of a stopped node to the remaining nodes', async () => {
    const gamma = sim('gamma')
    await waitFor(async () => (await readyNodes()).includes('gamma'), {
      what: 'gamma Ready',
      timeoutMs: 40_000,
    })
    // A short toleration makes the eviction follow the unreachable taint within seconds.
    const mover = deployment('mover', {
      replicas: 6,
      containers: [{ name: 'main', image: 'busybox' }],
    })
    const template = (mover.spec as any).template
    template.spec.tolerations = [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 2,
      },
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 2,
      },
    ]
    await apply(mover)
    const placed = await waitRunning('app=mover', 6)
    const onGamma = placed.filter((r) => r.NODE === 'gamma').map((r) => r.NAME)
    expect(
      onGamma.length,
      `pods spread over all three nodes: ${JSON.stringify(placed)}`,
    ).toBeGreaterThan(0)

    const stoppedAt = Date.now()
    await gamma.stop()
    await waitFor(
      async () => {
        const n = await json(['get', 'node', 'gamma'])
        return n.status.conditions.find((c: any) => c.type === 'Ready')?.status === 'Unknown'
      },
      { what: 'gamma Ready=Unknown', timeoutMs: 40_000, intervalMs: 250 },
    )
    expect(Date.now() - stoppedAt).toBeLessThan((gracePeriodSeconds + 10) * 1000)
    expect((await run(['get', 'node', 'gamma'])).stdout).toMatch(/gamma\s+NotReady/)

    const moved = await waitRunning('app=mover', 6, {
      allowTerminating: true,
      nodes: LIVE_NODES,
      timeoutMs: 60_000,
    })
    for (const name of onGamma) expect(moved.map((r) => r.NAME)).not.toContain(name)
    // Whatever still shows for gamma is on its way out, as upstream leaves it until the node returns.
    const stragglers = (await podRows('app=mover')).filter((r) => r.NODE === 'gamma')
    expect(stragglers.every((r) => r.STATUS === 'Terminating')).toBe(true)
    expect(parseTable((await run(['get', 'deployment', 'mover'])).stdout).rows[0]).toMatchObject({
      READY: '6/6',
    })
  })

  it('records ScalingReplicaSet and SuccessfulCreate events', async () => {
    const events = await waitFor(
      async () => {
        const res = await run(['get', 'events'])
        return (
          res.stdout.includes('ScalingReplicaSet') &&
          res.stdout.includes('SuccessfulCreate') &&
          res.stdout
        )
      },
      { what: 'ScalingReplicaSet and SuccessfulCreate events', timeoutMs: 30_000 },
    )
    expect(events).toMatch(
      /ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-\w+ (to|from)/,
    )
    expect(events).toMatch(/SuccessfulCreate\s+replicaset\/web-\w+\s+Created pod: web-\w+-\w+/)
  })

  it('removes the ReplicaSets and pods of a deleted deployment', async () => {
    expect((await run(['delete', 'deployment', 'web'])).stdout).toContain(
      'deployment.apps "web" deleted',
    )
    await waitFor(async () => (await replicaSets('app=web')).length === 0, {
      what: 'web ReplicaSets gone',
      timeoutMs: 40_000,
      intervalMs: 250,
    })
    await waitFor(async () => (await podRows('app=web')).length === 0, {
      what: 'web pods gone',
      timeoutMs: 40_000,
      intervalMs: 250,
    })
  })

  it('keeps the ReplicaSet and its pods with --cascade=orphan', async () => {
    await apply(
      deployment('keep', { replicas: 2, containers: [{ name: 'main', image: 'busybox' }] }),
    )
    await waitRunning('app=keep', 2)
    await rolloutStatus('keep')
    const rsName = (await replicaSets('app=keep'))[0]!.NAME!
    const pods = (await podRows('app=keep')).map((r) => r.NAME).sort()
    expect((await run(['delete', 'deployment', 'keep', '--cascade=orphan'])).code).toBe(0)
    const rs = await waitFor(
      async () => {
        const r = await json(['get', 'rs', rsName])
        return (r.metadata.ownerReferences ?? []).length === 0 && r
      },
      { what: `${rsName} orphaned`, timeoutMs: 15_000, intervalMs: 250 },
    )
    expect(rs.spec.replicas).toBe(2)
    expect((await run(['get', 'deployment', 'keep'])).stderr).toContain('NotFound')
    // The orphaned ReplicaSet still owns the same pods, and nothing replaces or removes them.
    const still = await waitRunning('app=keep', 2)
    expect(still.map((r) => r.NAME).sort()).toEqual(pods)
    expect((await replicaSets('app=keep'))[0]).toMatchObject({
      NAME: rsName,
      DESIRED: '2',
      READY: '2',
    })
  })

  it('deletes a namespace with its contents, then the namespace itself', async () => {
    await apply(
      namespace('scratch'),
      deployment('inner', {
        namespace: 'scratch',
        replicas: 2,
        containers: [{ name: 'main', image: 'busybox' }],
      }),
    )
    await waitRunning('app=inner', 2, { ns: 'scratch' })
    const res = await run(['delete', 'namespace', 'scratch', '--timeout=30s'], undefined, 40_000)
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain('namespace "scratch" deleted')
    await waitFor(
      async () => (await run(['get', 'namespace', 'scratch'])).stderr.includes('NotFound'),
      { what: 'namespace scratch gone', timeoutMs: 30_000 },
    )
    const left = await run(['get', 'deployments,replicasets,pods', '-n', 'scratch', '-o', 'name'])
    expect(left.stdout.trim()).toBe('')
  })
})
