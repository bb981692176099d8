import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { deployment, namespace, podManifest, stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'

let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

beforeAll(async () => {
  server = await startServer()
  agents.push(
    startAgent(server.kubeconfig, [
      '--name',
      'drain-a',
      '--runtime',
      'sim',
      '--lease-seconds',
      '1',
    ]),
  )
  agents.push(
    startAgent(server.kubeconfig, [
      '--name',
      'drain-b',
      '--runtime',
      'sim',
      '--lease-seconds',
      '1',
    ]),
  )
  await waitFor(
    async () => {
      const nodes = await json(['get', 'nodes', '-o', 'json'])
      return (
        nodes.items.filter((n: any) =>
          n.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
        ).length === 2
      )
    },
    { what: 'two Ready nodes', timeoutMs: 30_000 },
  )
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

const webPodsOn = async (node: string) =>
  (await json(['get', 'pods', '-n', 'drain', '-l', 'app=web', '-o', 'json'])).items.filter(
    (p: any) => p.spec.nodeName === node && !p.metadata.deletionTimestamp,
  )

describe('kubectl drain under a PodDisruptionBudget', () => {
  it('is refused while the budget allows no disruption, and drains once the budget changes', async () => {
    expect((await run(['create', 'namespace', 'drain'])).code).toBe(0)
    // Both replicas on drain-a: drain-b is cordoned while they are placed.
    expect((await run(['cordon', 'drain-b'])).code).toBe(0)
    const web = deployment('web', {
      namespace: 'drain',
      replicas: 2,
      containers: [{ name: 'main', image: 'busybox' }],
    })
    expect((await run(['apply', '-f', '-'], stream(web))).code).toBe(0)
    await waitFor(
      async () =>
        (await webPodsOn('drain-a')).filter((p: any) =>
          p.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
        ).length === 2,
      { what: 'two ready web pods on drain-a', timeoutMs: 40_000 },
    )
    expect((await run(['uncordon', 'drain-b'])).code).toBe(0)

    expect(
      (
        await run([
          'create',
          'poddisruptionbudget',
          'web',
          '-n',
          'drain',
          '--selector=app=web',
          '--min-available=2',
        ])
      ).code,
    ).toBe(0)
    const pdb = await waitFor(
      async () => {
        const p = await json(['get', 'pdb', 'web', '-n', 'drain', '-o', 'json'])
        return p.status?.observedGeneration === 1 && p.status.expectedPods === 2 && p
      },
      { what: 'the budget observed', timeoutMs: 30_000 },
    )
    expect(pdb.status).toMatchObject({
      currentHealthy: 2,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    })
    const table = await run(['get', 'pdb', '-n', 'drain'])
    expect(table.stdout).toMatch(
      /NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb\s+2\s+N\/A\s+0\s+/,
    )

    const described = await run(['describe', 'pdb', 'web', '-n', 'drain'])
    expect(described.stdout).toMatch(/Min available:\s+2/)
    expect(described.stdout).toMatch(/Allowed disruptions:\s+0/)

    const blocked = await run([
      'drain',
      'drain-a',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--timeout=8s',
    ])
    expect(blocked.code).not.toBe(0)
    expect(blocked.stdout + blocked.stderr).toContain(
      "Cannot evict pod as it would violate the pod's disruption budget.",
    )
    expect((await json(['get', 'node', 'drain-a', '-o', 'json'])).spec.unschedulable).toBe(true)
    expect(await webPodsOn('drain-a')).toHaveLength(2)

    expect(
      (
        await run([
          'patch',
          'pdb',
          'web',
          '-n',
          'drain',
          '--type=merge',
          '-p',
          '{"spec":{"minAvailable":1}}',
        ])
      ).code,
    ).toBe(0)
    await waitFor(
      async () =>
        (await json(['get', 'pdb', 'web', '-n', 'drain', '-o', 'json'])).status
          ?.disruptionsAllowed === 1,
      { what: 'one disruption allowed', timeoutMs: 30_000 },
    )
    const drained = await run([
      'drain',
      'drain-a',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--timeout=90s',
    ])
    expect(drained.stdout + drained.stderr).toContain('node/drain-a drained')
    expect(drained.code).toBe(0)
    expect(await webPodsOn('drain-a')).toHaveLength(0)
    // the replacements run on the other node
    await waitFor(async () => (await webPodsOn('drain-b')).length === 2, {
      what: 'two web pods on drain-b',
      timeoutMs: 40_000,
    })

    expect((await run(['uncordon', 'drain-a'])).code).toBe(0)
    expect((await json(['get', 'node', 'drain-a', '-o', 'json'])).spec.unschedulable).toBeFalsy()
  })
})

describe('ResourceQuota', () => {
  it('refuses the pod over the quota with 403 and upstream message; describe shows usage', async () => {
    expect((await run(['create', 'namespace', 'quota'])).code).toBe(0)
    expect(
      (await run(['create', 'quota', 'q', '-n', 'quota', '--hard=pods=2,count/configmaps=5'])).code,
    ).toBe(0)
    await waitFor(
      async () =>
        (await json(['get', 'quota', 'q', '-n', 'quota', '-o', 'json'])).status?.used?.pods === '0',
      { what: 'quota usage counted', timeoutMs: 30_000 },
    )
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(
            podManifest('p1', { namespace: 'quota', image: 'nginx:1.27' }),
            podManifest('p2', { namespace: 'quota', image: 'nginx:1.27' }),
          ),
        )
      ).code,
    ).toBe(0)
    const over = await run(
      ['apply', '-f', '-'],
      stream(podManifest('p3', { namespace: 'quota', image: 'nginx:1.27' })),
    )
    expect(over.code).not.toBe(0)
    expect(over.stderr).toContain('Error from server (Forbidden)')
    expect(over.stderr).toContain(
      'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    )
    expect((await run(['get', 'pod', 'p3', '-n', 'quota'])).code).not.toBe(0)

    await waitFor(
      async () =>
        (await json(['get', 'quota', 'q', '-n', 'quota', '-o', 'json'])).status?.used?.pods === '2',
      { what: 'two pods counted', timeoutMs: 30_000 },
    )
    const described = await run(['describe', 'quota', 'q', '-n', 'quota'])
    expect(described.code).toBe(0)
    expect(described.stdout).toMatch(/Resource\s+Used\s+Hard/)
    expect(described.stdout).toMatch(/pods\s+2\s+2/)
    expect(described.stdout).toMatch(/count\/configmaps\s+\d+\s+5/)

    // deleting a pod gives its unit back
    expect((await run(['delete', 'pod', 'p1', '-n', 'quota', '--wait=false'])).code).toBe(0)
    await waitFor(
      async () =>
        (
          await run(
            ['apply', '-f', '-'],
            stream(podManifest('p3', { namespace: 'quota', image: 'nginx:1.27' })),
          )
        ).code === 0,
      { what: 'p3 admitted after p1 is gone', timeoutMs: 30_000 },
    )
    // The quota is full again once its recount has seen p1 go and p3 come.
    await waitFor(
      async () =>
        (await json(['get', 'quota', 'q', '-n', 'quota', '-o', 'json'])).status?.used?.pods === '2',
      { what: 'p2 and p3 counted', timeoutMs: 30_000 },
    )

    // Pods a controller creates are admitted the same way: the ReplicaSet reports the refusal.
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(
            deployment('over', {
              namespace: 'quota',
              replicas: 1,
              containers: [{ name: 'main', image: 'busybox' }],
            }),
          ),
        )
      ).code,
    ).toBe(0)
    const rs = await waitFor(
      async () => {
        const list = await json(['get', 'rs', '-n', 'quota', '-l', 'app=over', '-o', 'json'])
        return (
          list.items.find((r: any) =>
            r.status?.conditions?.some((c: any) => c.type === 'ReplicaFailure'),
          ) ?? false
        )
      },
      { what: 'ReplicaFailure on the ReplicaSet over quota', timeoutMs: 40_000 },
    )
    // The condition and the event carry quota admission's error, as kube-controller-manager reports it.
    const quotaError =
      'is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2'
    const condition = rs.status.conditions.find((c: any) => c.type === 'ReplicaFailure')
    expect(condition).toMatchObject({ status: 'True', reason: 'FailedCreate' })
    expect(condition.message).toMatch(
      new RegExp(`^pods "${rs.metadata.name}-[a-z0-9]{5}" ${quotaError}$`),
    )
    const describedRs = await waitFor(
      async () => {
        const out = await run(['describe', 'rs', rs.metadata.name, '-n', 'quota'])
        return out.stdout.includes('Error creating: pods') ? out.stdout : false
      },
      { what: 'the FailedCreate event in kubectl describe rs', timeoutMs: 30_000 },
    )
    expect(describedRs).toMatch(/ReplicaFailure\s+True\s+FailedCreate/)
    expect(describedRs).toMatch(
      new RegExp(
        `Warning\\s+FailedCreate\\s+.*replicaset-controller\\s+Error creating: pods "${rs.metadata.name}-[a-z0-9]{5}" ${quotaError}`,
      ),
    )
    expect(
      (await json(['get', 'pods', '-n', 'quota', '-l', 'app=over', '-o', 'json'])).items,
    ).toHaveLength(0)
    expect((await json(['get', 'quota', 'q', '-n', 'quota', '-o', 'json'])).status.used.pods).toBe(
      '2',
    )
  })

  it('lets a ReplicaSet create no pod in a namespace whose quota allows none', async () => {
    expect((await run(['create', 'namespace', 'quota-none'])).code).toBe(0)
    expect((await run(['create', 'quota', 'none', '-n', 'quota-none', '--hard=pods=0'])).code).toBe(
      0,
    )
    await waitFor(
      async () => {
        const status = (await json(['get', 'quota', 'none', '-n', 'quota-none', '-o', 'json']))
          .status
        return status?.hard?.pods === '0' && status?.used?.pods === '0'
      },
      { what: 'the quota observed', timeoutMs: 30_000 },
    )
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'none', namespace: 'quota-none' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'none' } },
        template: {
          metadata: { labels: { app: 'none' } },
          spec: { containers: [{ name: 'main', image: 'busybox' }] },
        },
      },
    }
    expect((await run(['apply', '-f', '-'], stream(rs))).code).toBe(0)
    const failed = await waitFor(
      async () =>
        (
          await json(['get', 'rs', 'none', '-n', 'quota-none', '-o', 'json'])
        ).status?.conditions?.find((c: any) => c.type === 'ReplicaFailure') ?? false,
      {
        what: 'ReplicaFailure on the ReplicaSet',
        timeoutMs: 40_000,
      },
    )
    const quotaError =
      /^pods "none-[a-z0-9]{5}" is forbidden: exceeded quota: none, requested: pods=1, used: pods=0, limited: pods=0$/
    expect(failed).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringMatching(quotaError),
    })
    const events = await json([
      'get',
      'events',
      '-n',
      'quota-none',
      '--field-selector',
      'involvedObject.name=none,reason=FailedCreate',
      '-o',
      'json',
    ])
    expect(events.items.map((e: any) => e.type)).toContain('Warning')
    for (const e of events.items) {
      expect(e.message.startsWith('Error creating: ')).toBe(true)
      expect(e.message.slice('Error creating: '.length)).toMatch(quotaError)
    }
    expect((await json(['get', 'pods', '-n', 'quota-none', '-o', 'json'])).items).toHaveLength(0)
  })
})

describe('LimitRange', () => {
  it('defaults requests and limits on a new pod, and refuses one over its max', async () => {
    expect((await run(['create', 'namespace', 'limits'])).code).toBe(0)
    const range = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'cpu-mem', namespace: 'limits' },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m', memory: '256Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
            max: { cpu: '1' },
          },
        ],
      },
    }
    expect((await run(['apply', '-f', '-'], stream(range))).code).toBe(0)
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(podManifest('defaulted', { namespace: 'limits', image: 'nginx:1.27' })),
        )
      ).code,
    ).toBe(0)
    const created = await json(['get', 'pod', 'defaulted', '-n', 'limits', '-o', 'json'])
    expect(created.spec.containers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    })
    expect(created.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container main; cpu, memory limit for container main',
    )

    const big = podManifest('big', { namespace: 'limits', image: 'nginx:1.27' }) as any
    big.spec.containers[0].resources = { limits: { cpu: '2' } }
    const refused = await run(['apply', '-f', '-'], stream(big))
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    )
  })
})
