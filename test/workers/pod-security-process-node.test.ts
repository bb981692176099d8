import { beforeAll, describe, expect, it } from 'vitest'
import { api } from './helpers'
import { runner } from './controller-runner'
import { podManifest } from '../helpers'

// A pod that names its node itself (spec.nodeName on create, or pods/binding) skips the scheduler,
// which keeps pods of a namespace enforcing baseline or restricted off process nodes: admission
// holds it to the same rule.

const apply = 'application/apply-patch+yaml'
const enforcing = 'pn-baseline'
const open = 'pn-open'

/** A pod with one sleeping container `c`, and these spec fields. */
const sleeper = (name: string, spec: Record<string, unknown> = {}) =>
  podManifest(name, {
    containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }],
    spec,
  })
const node = (name: string, runtime: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'edgeplane.io/runtime': runtime } },
})
const refusal = (name: string, nodeName: string, level = 'baseline:latest') =>
  `pods "${name}" is forbidden: node "${nodeName}" runs containers as host processes, which can't meet the namespace's PodSecurity enforce level "${level}"`

beforeAll(async () => {
  const namespaces = [
    { name: enforcing, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } },
    {
      name: 'pn-restricted',
      labels: {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/enforce-version': 'v1.30',
      },
    },
    { name: 'pn-warn', labels: { 'pod-security.kubernetes.io/warn': 'baseline' } },
    { name: open, labels: {} },
  ]
  for (const { name, labels } of namespaces)
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name, labels },
        })
      ).status,
    ).toBe(201)
  expect((await api('POST', '/api/v1/nodes', node('pn-laptop', 'process'))).status).toBe(201)
  expect((await api('POST', '/api/v1/nodes', node('pn-server', 'docker'))).status).toBe(201)
})

describe('a pod created with spec.nodeName', () => {
  it('is refused on a process node where enforce is baseline or restricted, 403 with the node and level, and nothing is stored', async () => {
    const created = await api(
      'POST',
      `/api/v1/namespaces/${enforcing}/pods`,
      sleeper('pinned', { nodeName: 'pn-laptop' }),
    )
    expect(created.status).toBe(403)
    expect(created.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: refusal('pinned', 'pn-laptop'),
      details: { name: 'pinned', kind: 'pods' },
    })
    expect((await api('GET', `/api/v1/namespaces/${enforcing}/pods/pinned`)).status).toBe(404)

    // A restricted-compliant pod is no exception: what runs on a process node is privileged whatever the spec says.
    const compliant = sleeper('tight', {
      nodeName: 'pn-laptop',
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'c',
          image: 'busybox',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    })
    const restricted = await api('POST', '/api/v1/namespaces/pn-restricted/pods', compliant)
    expect(restricted.status).toBe(403)
    expect(restricted.json.message).toBe(refusal('tight', 'pn-laptop', 'restricted:v1.30'))

    // A server-side apply that creates the pod is a create all the same.
    const applied = await api(
      'PATCH',
      `/api/v1/namespaces/${enforcing}/pods/pinned?fieldManager=test`,
      sleeper('pinned', { nodeName: 'pn-laptop' }),
      apply,
    )
    expect(applied.status).toBe(403)
    expect(applied.json.message).toBe(refusal('pinned', 'pn-laptop'))
    expect((await api('GET', `/api/v1/namespaces/${enforcing}/pods/pinned`)).status).toBe(404)

    // A dry run is answered as the create would be.
    const dry = await api(
      'POST',
      `/api/v1/namespaces/${enforcing}/pods?dryRun=All`,
      sleeper('pinned', { nodeName: 'pn-laptop' }),
    )
    expect(dry.status).toBe(403)
  })

  it('is created on a docker node, on a process node of a namespace that enforces nothing, and where only warn is set', async () => {
    const docker = await api(
      'POST',
      `/api/v1/namespaces/${enforcing}/pods`,
      sleeper('on-server', { nodeName: 'pn-server' }),
    )
    expect(docker.status, docker.json.message).toBe(201)
    expect(docker.json.spec.nodeName).toBe('pn-server')
    for (const namespace of [open, 'pn-warn']) {
      const res = await api(
        'POST',
        `/api/v1/namespaces/${namespace}/pods`,
        sleeper('on-laptop', { nodeName: 'pn-laptop' }),
      )
      expect(res.status, res.json.message).toBe(201)
      expect(
        (await api('GET', `/api/v1/namespaces/${namespace}/pods/on-laptop`)).json.spec.nodeName,
      ).toBe('pn-laptop')
    }
    // A node that does not exist (yet) is not one the rule knows to be a process node.
    expect(
      (
        await api(
          'POST',
          `/api/v1/namespaces/${enforcing}/pods`,
          sleeper('on-nowhere', { nodeName: 'pn-missing' }),
        )
      ).status,
    ).toBe(201)
  })

  it('is refused to a controller too: the ReplicaSet reports FailedCreate and makes no pod', async () => {
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'pinned-rs' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'pinned-rs' } },
        template: {
          metadata: { labels: { app: 'pinned-rs' } },
          spec: sleeper('x', { nodeName: 'pn-laptop' }).spec,
        },
      },
    }
    expect(
      (await api('POST', `/apis/apps/v1/namespaces/${enforcing}/replicasets`, rs)).status,
    ).toBe(201)
    const passes = runner('replicaset')
    let failed: any[] = []
    for (let i = 0; i < 6 && !failed.length; i++) {
      await passes.pass(Date.now)
      const events = (
        await api(
          'GET',
          `/api/v1/namespaces/${enforcing}/events?fieldSelector=involvedObject.name%3Dpinned-rs`,
        )
      ).json.items
      failed = events.filter((e: any) => e.type === 'Warning' && e.reason === 'FailedCreate')
    }
    expect(failed.length).toBeGreaterThan(0)
    expect(failed[0].message).toMatch(
      /^Error creating: pods "pinned-rs-[a-z0-9]{5}" is forbidden: node "pn-laptop" runs containers as host processes, which can't meet the namespace's PodSecurity enforce level "baseline:latest"$/,
    )
    expect(
      (await api('GET', `/api/v1/namespaces/${enforcing}/pods?labelSelector=app%3Dpinned-rs`)).json
        .items,
    ).toEqual([])
  })
})

describe('POST pods/binding', () => {
  const binding = (name: string, nodeName: string) => ({
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name },
    target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
  })
  // No scheduler of that name: the pods wait for the binding.
  const waiting = (name: string) => sleeper(name, { schedulerName: 'by-hand' })

  it('to a process node is refused where enforce is baseline, and the pod stays unbound', async () => {
    expect(
      (await api('POST', `/api/v1/namespaces/${enforcing}/pods`, waiting('unbound'))).status,
    ).toBe(201)
    const bound = await api(
      'POST',
      `/api/v1/namespaces/${enforcing}/pods/unbound/binding`,
      binding('unbound', 'pn-laptop'),
    )
    expect(bound.status).toBe(403)
    expect(bound.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: refusal('unbound', 'pn-laptop'),
    })
    const stored = (await api('GET', `/api/v1/namespaces/${enforcing}/pods/unbound`)).json
    expect(stored.spec.nodeName).toBeUndefined()
    expect(stored.status.conditions ?? []).not.toContainEqual(
      expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
    )

    // The same pod binds to a docker node.
    expect(
      (
        await api(
          'POST',
          `/api/v1/namespaces/${enforcing}/pods/unbound/binding`,
          binding('unbound', 'pn-server'),
        )
      ).status,
    ).toBe(201)
    expect(
      (await api('GET', `/api/v1/namespaces/${enforcing}/pods/unbound`)).json.spec.nodeName,
    ).toBe('pn-server')
  })

  it('to a process node binds a pod of a namespace that enforces nothing; a missing pod is still a 404', async () => {
    expect((await api('POST', `/api/v1/namespaces/${open}/pods`, waiting('unbound'))).status).toBe(
      201,
    )
    const bound = await api(
      'POST',
      `/api/v1/namespaces/${open}/pods/unbound/binding`,
      binding('unbound', 'pn-laptop'),
    )
    expect(bound.status, bound.json.message).toBe(201)
    expect((await api('GET', `/api/v1/namespaces/${open}/pods/unbound`)).json.spec.nodeName).toBe(
      'pn-laptop',
    )

    const missing = await api(
      'POST',
      `/api/v1/namespaces/${enforcing}/pods/nobody/binding`,
      binding('nobody', 'pn-laptop'),
    )
    expect(missing.status).toBe(404)
  })
})
