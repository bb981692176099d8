import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { deployment, podManifest, sleep, waitFor } from '../helpers'

// Controllers resync once an hour here: what
// these tests wait for (10 s at most) can only come from the stores' change notifications.
const RESYNC_SECONDS = 3600
const WAIT_MS = 10_000

let server: TestServer
const agents: AgentProcess[] = []

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await server.request(path, {
    method,
    token: server.token,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: 10_000,
  })
  if (res.status >= 300)
    throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`)
  return JSON.parse(res.body)
}

const pods = async (namespace: string, selector = ''): Promise<any[]> =>
  (
    await api(
      'GET',
      `/api/v1/namespaces/${namespace}/pods${selector ? `?labelSelector=${encodeURIComponent(selector)}` : ''}`,
    )
  ).items
const running = (p: any) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp
const namespace = (name: string) =>
  api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })

beforeAll(async () => {
  server = await startServer({ env: { CONTROLLER_RESYNC_SECONDS: String(RESYNC_SECONDS) } })
  for (const zone of ['east', 'west'])
    agents.push(
      startAgent(server.kubeconfig, [
        '--name',
        zone,
        '--runtime',
        'sim',
        '--labels',
        `zone=${zone}`,
        '--sim-start-delay-ms',
        '50',
      ]),
    )
  await waitFor(
    async () =>
      (await api('GET', '/api/v1/nodes')).items.filter((n: any) =>
        n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
      ).length === 2,
    {
      what: 'two Ready nodes',
      timeoutMs: 30_000,
    },
  )
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('controllers woken by change notifications alone', () => {
  it('replaces every pod of a Deployment deleted in a tight loop', async () => {
    await namespace('churn')
    await api(
      'POST',
      '/apis/apps/v1/namespaces/churn/deployments',
      deployment('web', { replicas: 4, containers: [{ name: 'main', image: 'busybox' }] }),
    )
    await waitFor(async () => (await pods('churn', 'app=web')).filter(running).length === 4, {
      what: '4 web pods Running',
      timeoutMs: 30_000,
    })
    const late: string[] = []
    for (let trial = 0; trial < 40; trial++) {
      const before = await pods('churn', 'app=web')
      const known = new Set(before.map((p) => p.metadata.name))
      // One pod, then two at once, then three, and again.
      const victims = before.filter(running).slice(0, 1 + (trial % 3))
      await Promise.all(
        victims.map((v) => api('DELETE', `/api/v1/namespaces/churn/pods/${v.metadata.name}`)),
      )
      await waitFor(
        async () =>
          (await pods('churn', 'app=web')).filter((p) => !known.has(p.metadata.name) && running(p))
            .length >= victims.length,
        {
          what: `replacements of ${victims.map((v) => v.metadata.name).join(', ')} Running`,
          timeoutMs: WAIT_MS,
          intervalMs: 50,
        },
      ).catch(() => late.push(`trial ${trial}: ${victims.map((v) => v.metadata.name).join(', ')}`))
      // The next deletion comes at once, or while the last replacement is still starting.
      if (trial % 4 === 3) await sleep(120)
    }
    expect(late).toEqual([])
  }, 600_000)

  it('binds a pod with a nodeSelector to its node and runs it', async () => {
    await api('POST', '/api/v1/namespaces/default/pods', {
      ...podManifest('in-west', { image: 'busybox' }),
      spec: { nodeSelector: { zone: 'west' }, containers: [{ name: 'main', image: 'busybox' }] },
    })
    const placed = await waitFor(
      async () => {
        const p = await api('GET', '/api/v1/namespaces/default/pods/in-west')
        return running(p) && p
      },
      { what: 'pod in-west Running', timeoutMs: WAIT_MS },
    )
    expect(placed.spec.nodeName).toBe('west')
  })

  it('spreads the pods of one owner over both nodes', async () => {
    const owner = await api('POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'spread' },
    })
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'spread',
      uid: owner.metadata.uid,
      controller: true,
    }
    for (let i = 0; i < 4; i++) {
      await api('POST', '/api/v1/namespaces/default/pods', {
        ...podManifest(`spread-${i}`, { image: 'busybox', labels: { spread: 'yes' } }),
        metadata: { name: `spread-${i}`, labels: { spread: 'yes' }, ownerReferences: [ref] },
      })
    }
    const nodes = await waitFor(
      async () => {
        const placed = (await pods('default', 'spread=yes'))
          .map((p) => p.spec.nodeName)
          .filter((n) => n)
        return placed.length === 4 && placed
      },
      { what: 'four spread pods bound', timeoutMs: WAIT_MS },
    )
    expect(nodes.filter((n: string) => n === 'east')).toHaveLength(2)
  })

  it('gives a deleted pod its quota back, and reports a ReplicaSet the quota refuses', async () => {
    await namespace('quota')
    await api('POST', '/api/v1/namespaces/quota/resourcequotas', {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { pods: '2' } },
    })
    const used = async () =>
      (await api('GET', '/api/v1/namespaces/quota/resourcequotas/q')).status?.used?.pods
    await waitFor(async () => (await used()) === '0', {
      what: 'quota usage counted',
      timeoutMs: WAIT_MS,
    })
    for (const name of ['p1', 'p2'])
      await api('POST', '/api/v1/namespaces/quota/pods', podManifest(name, { image: 'busybox' }))
    await expect(
      api('POST', '/api/v1/namespaces/quota/pods', podManifest('p3', { image: 'busybox' })),
    ).rejects.toThrow(/answered 403/)
    await waitFor(async () => (await used()) === '2', {
      what: 'two pods counted',
      timeoutMs: WAIT_MS,
    })
    // The recount that sees p1 go is what lets p3 in.
    await api('DELETE', '/api/v1/namespaces/quota/pods/p1')
    await waitFor(
      () => api('POST', '/api/v1/namespaces/quota/pods', podManifest('p3', { image: 'busybox' })),
      { what: 'p3 admitted once p1 is gone', timeoutMs: WAIT_MS },
    )

    await api(
      'POST',
      '/apis/apps/v1/namespaces/quota/deployments',
      deployment('over', { replicas: 1, containers: [{ name: 'main', image: 'busybox' }] }),
    )
    await waitFor(
      async () =>
        (
          await api('GET', '/apis/apps/v1/namespaces/quota/replicasets?labelSelector=app%3Dover')
        ).items.some((rs: any) =>
          rs.status?.conditions?.some((c: any) => c.type === 'ReplicaFailure'),
        ),
      {
        what: 'ReplicaFailure on the ReplicaSet over quota',
        timeoutMs: WAIT_MS,
      },
    )
  })
})
