import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { podManifest, stream, type Manifest } from './helpers/manifests'
import { waitFor } from './helpers/wait'

// One small sim node (1 cpu) to fill, and one process node for RuntimeClass steering.
const SIM = 'prio-sim'
const PROC = 'prio-proc'

let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

/** A sleeping pod labelled test=priority, requesting `cpu`, with these spec fields. */
const sleeper = (name: string, spec: Record<string, unknown> = {}, cpu = '600m'): Manifest =>
  podManifest(name, {
    labels: { test: 'priority' },
    containers: [
      {
        name: 'main',
        image: 'busybox',
        command: ['sleep', '300'],
        resources: { requests: { cpu } },
      },
    ],
    spec: { terminationGracePeriodSeconds: 1, ...spec },
  })

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): Manifest => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
})

beforeAll(async () => {
  server = await startServer()
  agents.push(
    startAgent(server.kubeconfig, [
      '--name',
      SIM,
      '--runtime',
      'sim',
      '--cpu',
      '1',
      '--lease-seconds',
      '1',
      '--sim-start-delay-ms',
      '100',
    ]),
  )
  agents.push(
    startAgent(server.kubeconfig, ['--name', PROC, '--runtime', 'process', '--lease-seconds', '1']),
  )
  await waitFor(
    async () => {
      const nodes = await json(['get', 'nodes', '-o', 'json'])
      return (
        nodes.items.filter((n: any) =>
          n.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'True'),
        ).length === 2
      )
    },
    { what: 'two Ready nodes', timeoutMs: 40_000 },
  )
})

afterAll(async () => {
  await run(['delete', 'pods', '-l', 'test=priority', '--wait=false'])
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('PriorityClass', () => {
  it('serves the system classes with upstream columns', async () => {
    const out = await run(['get', 'priorityclasses'])
    expect(out.code).toBe(0)
    expect(out.stdout).toMatch(/^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY/)
    expect(out.stdout).toMatch(
      /system-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority/,
    )
    expect(out.stdout).toMatch(/system-node-critical\s+2000001000\s+false/)
    const del = await run(['delete', 'pc', 'system-node-critical'])
    expect(del.stderr).toContain(
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    )
    // kubectl create priorityclass sends protobuf.
    const created = await run([
      'create',
      'priorityclass',
      'made-by-kubectl',
      '--value=-5',
      '--description=negative',
      '--preemption-policy=Never',
    ])
    expect(created.code).toBe(0)
    expect(await json(['get', 'pc', 'made-by-kubectl', '-o', 'json'])).toMatchObject({
      value: -5,
      description: 'negative',
      preemptionPolicy: 'Never',
    })
    const immutable = await run([
      'patch',
      'pc',
      'made-by-kubectl',
      '--type=merge',
      '-p',
      '{"value":6}',
    ])
    expect(immutable.stderr).toContain('value: Forbidden: may not be changed in an update.')
    const reserved = await run(['apply', '-f', '-'], stream(pc('system-mine', 5)))
    expect(reserved.stderr).toContain(
      "priority class names with 'system-' prefix are reserved for system use only",
    )
  })

  it('admits priorityClassName into spec.priority and refuses what upstream refuses', async () => {
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(pc('high', 1000, { description: 'wins' }), pc('low', 10, { globalDefault: true })),
        )
      ).code,
    ).toBe(0)
    const second = await run(
      ['apply', '-f', '-'],
      stream(pc('another-default', 1, { globalDefault: true })),
    )
    expect(second.stderr).toContain(
      'PriorityClass low is already marked as default. Only one default can exist',
    )

    const unknown = await run(
      ['apply', '-f', '-'],
      stream(sleeper('unknown-class', { priorityClassName: 'nope' }, '10m')),
    )
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain('Error from server (Forbidden)')
    expect(unknown.stderr).toContain(
      'pods "unknown-class" is forbidden: no PriorityClass with name nope was found',
    )
    const handSet = await run(
      ['apply', '-f', '-'],
      stream(sleeper('hand-set', { priorityClassName: 'high', priority: 7 }, '10m')),
    )
    expect(handSet.stderr).toContain(
      'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    )

    // The default class applies to a pod naming none (and to the victim below).
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(sleeper('victim', { nodeSelector: { 'edgeplane.io/runtime': 'sim' } })),
        )
      ).code,
    ).toBe(0)
    const victim = await json(['get', 'pod', 'victim', '-o', 'json'])
    expect(victim.spec).toMatchObject({
      priorityClassName: 'low',
      priority: 10,
      preemptionPolicy: 'PreemptLowerPriority',
    })
  })

  it('preempts a lower-priority pod on a full node', async () => {
    await waitFor(
      async () => (await json(['get', 'pod', 'victim', '-o', 'json'])).status.phase === 'Running',
      { what: 'victim Running', timeoutMs: 40_000 },
    )
    const victimUid = (await json(['get', 'pod', 'victim', '-o', 'json'])).metadata.uid
    // A Never pod of the same priority as `high` cannot preempt; it stays Pending and says why.
    expect(
      (await run(['apply', '-f', '-'], stream(pc('polite', 1000, { preemptionPolicy: 'Never' }))))
        .code,
    ).toBe(0)
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(
            sleeper('polite-pod', {
              priorityClassName: 'polite',
              nodeSelector: { 'edgeplane.io/runtime': 'sim' },
            }),
          ),
        )
      ).code,
    ).toBe(0)
    const polite = await waitFor(
      async () => {
        const p = await json(['get', 'pod', 'polite-pod', '-o', 'json'])
        return p.status.conditions?.find(
          (c: any) => c.type === 'PodScheduled' && c.status === 'False',
        )
      },
      { what: 'polite-pod Unschedulable', timeoutMs: 40_000 },
    )
    expect(polite.message).toContain('preemption: not eligible due to preemptionPolicy=Never.')
    expect((await run(['delete', 'pod', 'polite-pod', '--wait=false'])).code).toBe(0)

    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(
            sleeper('preemptor', {
              priorityClassName: 'high',
              nodeSelector: { 'edgeplane.io/runtime': 'sim' },
            }),
          ),
        )
      ).code,
    ).toBe(0)
    const preemptor = await waitFor(
      async () => {
        const p = await json(['get', 'pod', 'preemptor', '-o', 'json'])
        return p.status.phase === 'Running' && p
      },
      { what: 'preemptor Running', timeoutMs: 60_000 },
    )
    expect(preemptor.spec.nodeName).toBe(SIM)
    expect(preemptor.status.nominatedNodeName).toBe(SIM)
    const left = await run(['get', 'pod', 'victim', '-o', 'jsonpath={.metadata.uid}'])
    expect(left.stdout).not.toBe(victimUid)
    const events = await run([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=victim,reason=Preempted',
      '-o',
      'jsonpath={.items[*].message}',
    ])
    expect(events.stdout).toContain(`Preempted by pod ${preemptor.metadata.uid} on node ${SIM}`)
  })
})

describe('ReplicationController and PodTemplate', () => {
  it('keeps replicas and scales with kubectl scale rc', async () => {
    const rc: Manifest = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        template: {
          metadata: { labels: { app: 'web', test: 'priority' } },
          spec: {
            nodeSelector: { 'edgeplane.io/runtime': 'process' },
            containers: [{ name: 'c', image: 'busybox', command: ['sleep', '300'] }],
          },
        },
      },
    }
    expect((await run(['apply', '-f', '-'], stream(rc))).code).toBe(0)
    const owned = async () =>
      (await json(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items.filter(
        (p: any) => !p.metadata.deletionTimestamp,
      )
    await waitFor(async () => (await owned()).length === 2, {
      what: 'two rc pods',
      timeoutMs: 40_000,
    })
    const [first] = await owned()
    expect(first.metadata.ownerReferences[0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'web',
      controller: true,
    })
    expect((await run(['scale', 'rc', 'web', '--replicas=3'])).code).toBe(0)
    await waitFor(async () => (await owned()).length === 3, {
      what: 'three rc pods',
      timeoutMs: 40_000,
    })
    await waitFor(
      async () => (await json(['get', 'rc', 'web', '-o', 'json'])).status?.readyReplicas === 3,
      { what: 'rc readyReplicas 3', timeoutMs: 60_000 },
    )
    const table = await run(['get', 'rc', 'web', '-o', 'wide'])
    expect(table.stdout).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR/,
    )
    expect(table.stdout).toMatch(/web\s+3\s+3\s+3\s+\S+\s+c\s+busybox\s+app=web,test=priority/)
    expect((await run(['delete', 'rc', 'web'])).code).toBe(0)
    await waitFor(async () => (await owned()).length === 0, {
      what: 'rc pods gone with the rc',
      timeoutMs: 40_000,
    })
  })

  it('stores, validates and prints PodTemplates', async () => {
    const template: Manifest = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'tpl' },
      template: {
        metadata: { labels: { a: 'b' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    }
    expect((await run(['apply', '-f', '-'], stream(template))).code).toBe(0)
    expect((await run(['get', 'podtemplates'])).stdout).toMatch(
      /TEMPLATE\s+CONTAINERS\s+IMAGES\s+POD LABELS\s*\ntpl\s+c\s+nginx\s+a=b/,
    )
    const bad = await run(
      ['apply', '-f', '-'],
      stream({ ...template, metadata: { name: 'bad' }, template: { spec: { containers: [] } } }),
    )
    expect(bad.stderr).toContain('is invalid')
  })
})

describe('RuntimeClass', () => {
  it('steers a pod to nodes of its runtime, and refuses an unknown class', async () => {
    const classes = await run(['get', 'runtimeclasses'])
    expect(classes.stdout).toMatch(/^NAME\s+HANDLER\s+AGE/)
    expect(classes.stdout).toMatch(/process\s+process/)
    expect(classes.stdout).toMatch(/sim\s+sim/)
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(
            sleeper('on-process', { runtimeClassName: 'process' }, '10m'),
            sleeper('on-sim', { runtimeClassName: 'sim' }, '10m'),
          ),
        )
      ).code,
    ).toBe(0)
    const placed = await waitFor(
      async () => {
        const a = await json(['get', 'pod', 'on-process', '-o', 'json'])
        const b = await json(['get', 'pod', 'on-sim', '-o', 'json'])
        return a.spec.nodeName && b.spec.nodeName && [a, b]
      },
      { what: 'runtime-class pods bound', timeoutMs: 40_000 },
    )
    expect(placed[0].spec.nodeName).toBe(PROC)
    expect(placed[0].spec.nodeSelector).toEqual({ 'edgeplane.io/runtime': 'process' })
    expect(placed[1].spec.nodeName).toBe(SIM)
    const unknown = await run(
      ['apply', '-f', '-'],
      stream(sleeper('no-such-runtime', { runtimeClassName: 'gvisor' }, '10m')),
    )
    expect(unknown.stderr).toContain(
      'pods "no-such-runtime" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
    )
    const conflict = await run(
      ['apply', '-f', '-'],
      stream(
        sleeper(
          'conflicting',
          { runtimeClassName: 'sim', nodeSelector: { 'edgeplane.io/runtime': 'process' } },
          '10m',
        ),
      ),
    )
    expect(conflict.stderr).toContain(
      'conflict: runtimeClass.scheduling.nodeSelector[edgeplane.io/runtime] = sim; pod.spec.nodeSelector[edgeplane.io/runtime] = process',
    )
  })
})
