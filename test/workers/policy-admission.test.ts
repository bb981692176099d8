import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { podManifest, type PodManifestFixture } from '../helpers'

const ns = (name: string) =>
  api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })

const webPod = (name: string, f: PodManifestFixture = {}) =>
  podManifest(name, { labels: { app: 'web' }, ...f })

/** Writes a quota's status as the resource quota controller would. */
async function quotaWithStatus(
  namespace: string,
  name: string,
  hard: Record<string, string>,
  used: Record<string, string>,
) {
  const created = await api('POST', `/api/v1/namespaces/${namespace}/resourcequotas`, {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name },
    spec: { hard },
  })
  expect(created.status).toBe(201)
  const res = await api('PUT', `/api/v1/namespaces/${namespace}/resourcequotas/${name}/status`, {
    ...created.json,
    status: { hard, used },
  })
  expect(res.status).toBe(200)
}

const usedPods = async (namespace: string, name: string) =>
  (await api('GET', `/api/v1/namespaces/${namespace}/resourcequotas/${name}`)).json.status.used.pods

describe('quota admission through the API', () => {
  it('admits exactly as many concurrent creates as the quota has room for', async () => {
    await ns('wq-race')
    await quotaWithStatus('wq-race', 'q', { pods: '3' }, { pods: '0' })
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api('POST', '/api/v1/namespaces/wq-race/pods', webPod(`p${i}`)),
      ),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused).toHaveLength(5)
    for (const r of refused) {
      expect(r.status).toBe(403)
      expect(r.json).toMatchObject({ reason: 'Forbidden', details: { kind: 'pods' } })
      expect(r.json.message).toMatch(
        /^pods "p\d" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/,
      )
    }
    expect(await usedPods('wq-race', 'q')).toBe('3')
    expect((await api('GET', '/api/v1/namespaces/wq-race/pods')).json.items).toHaveLength(3)
  })

  it('charges nothing for an invalid object or a dry run', async () => {
    await ns('wq-free')
    await quotaWithStatus(
      'wq-free',
      'q',
      { pods: '1', 'requests.cpu': '1' },
      { pods: '0', 'requests.cpu': '0' },
    )
    const withCpu = (name: string) =>
      webPod(name, { requests: { cpu: '500m' }, limits: { cpu: '500m' } })
    expect((await api('POST', '/api/v1/namespaces/wq-free/pods', withCpu('Bad_Name'))).status).toBe(
      422,
    )
    expect(
      (await api('POST', '/api/v1/namespaces/wq-free/pods?dryRun=All', withCpu('dry'))).status,
    ).toBe(201)
    expect(await usedPods('wq-free', 'q')).toBe('0')
    const missing = await api('POST', '/api/v1/namespaces/wq-free/pods', webPod('no-cpu'))
    expect(missing.status).toBe(403)
    expect(missing.json.message).toBe(
      'pods "no-cpu" is forbidden: failed quota: q: must specify requests.cpu for: main',
    )
    expect((await api('POST', '/api/v1/namespaces/wq-free/pods', withCpu('ok'))).status).toBe(201)
    const q = (await api('GET', '/api/v1/namespaces/wq-free/resourcequotas/q')).json
    expect(q.status.used).toEqual({ pods: '1', 'requests.cpu': '500m' })
  })

  it('LimitRange defaults reach the stored pod; a create under its minimum is 403', async () => {
    await ns('wl')
    const lr = await api('POST', '/api/v1/namespaces/wl/limitranges', {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { memory: '512Mi' }, min: { memory: '64Mi' } }] },
    })
    expect(lr.status).toBe(201)
    expect(lr.json.spec.limits[0]).toMatchObject({
      default: { memory: '512Mi' },
      defaultRequest: { memory: '512Mi' },
    })
    const created = await api('POST', '/api/v1/namespaces/wl/pods', webPod('p'))
    expect(created.status).toBe(201)
    expect(created.json.spec.containers[0].resources).toEqual({
      limits: { memory: '512Mi' },
      requests: { memory: '512Mi' },
    })
    const small = await api(
      'POST',
      '/api/v1/namespaces/wl/pods',
      webPod('small', { requests: { memory: '32Mi' } }),
    )
    expect(small.status).toBe(403)
    expect(small.json.message).toBe(
      'pods "small" is forbidden: minimum memory usage per Container is 64Mi, but request is 32Mi',
    )
    const invalid = await api('POST', '/api/v1/namespaces/wl/limitranges', {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'bad' },
      spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
    })
    expect(invalid.status).toBe(422)
  })
})

describe('server-side apply that creates', () => {
  it('is admitted as a create: LimitRange defaults, then quota', async () => {
    await ns('wa')
    await quotaWithStatus('wa', 'q', { pods: '1' }, { pods: '0' })
    const lr = await api('POST', '/api/v1/namespaces/wa/limitranges', {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', default: { cpu: '200m' } }] },
    })
    expect(lr.status).toBe(201)
    const apply = (name: string) =>
      api(
        'PATCH',
        `/api/v1/namespaces/wa/pods/${name}?fieldManager=test`,
        JSON.stringify(webPod(name)),
        'application/apply-patch+yaml',
      )
    const first = await apply('a')
    expect(first.status).toBe(201)
    expect(first.json.spec.containers[0].resources).toEqual({
      limits: { cpu: '200m' },
      requests: { cpu: '200m' },
    })
    expect(first.json.metadata.managedFields.map((f: any) => f.manager)).toEqual(['test'])
    const second = await apply('b')
    expect(second.status).toBe(403)
    expect(second.json.message).toBe(
      'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    )
    // applying again to the existing pod is an update, not charged
    expect((await apply('a')).status).toBe(200)
    expect(await usedPods('wa', 'q')).toBe('1')
  })
})

describe('pods/eviction through the API', () => {
  const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
  const eviction = (name: string) => ({
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name },
  })

  async function runningPod(namespace: string, name: string) {
    const created = await api('POST', `/api/v1/namespaces/${namespace}/pods`, webPod(name))
    expect(created.status).toBe(201)
    expect(
      (
        await api('PUT', `/api/v1/namespaces/${namespace}/pods/${name}/status`, {
          ...created.json,
          status: ready,
        })
      ).status,
    ).toBe(200)
  }

  async function budget(namespace: string, status: Record<string, unknown>) {
    const created = await api(
      'POST',
      `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`,
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'web' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
    )
    expect(created.status).toBe(201)
    expect(created.json.status).toEqual({
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    })
    const res = await api(
      'PUT',
      `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets/web/status`,
      {
        ...created.json,
        status: {
          observedGeneration: 1,
          currentHealthy: 2,
          desiredHealthy: 1,
          expectedPods: 2,
          ...status,
        },
      },
    )
    expect(res.status).toBe(200)
  }

  it('429 while the budget allows no disruption; an allowed eviction deletes the pod and is charged to the budget', async () => {
    await ns('we')
    await runningPod('we', 'a')
    await budget('we', { disruptionsAllowed: 0 })
    const refused = await api('POST', '/api/v1/namespaces/we/pods/a/eviction', eviction('a'))
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget' }] },
    })
    expect((await api('GET', '/api/v1/namespaces/we/pods/a')).status).toBe(200)

    const pdb = (await api('GET', '/apis/policy/v1/namespaces/we/poddisruptionbudgets/web')).json
    await api('PUT', '/apis/policy/v1/namespaces/we/poddisruptionbudgets/web/status', {
      ...pdb,
      status: { ...pdb.status, disruptionsAllowed: 1 },
    })
    const evicted = await api('POST', '/api/v1/namespaces/we/pods/a/eviction', eviction('a'))
    expect(evicted.status).toBe(201)
    expect((await api('GET', '/api/v1/namespaces/we/pods/a')).status).toBe(404)
    const after = (await api('GET', '/apis/policy/v1/namespaces/we/poddisruptionbudgets/web')).json
      .status
    expect(after.disruptionsAllowed).toBe(0)
    expect(Object.keys(after.disruptedPods)).toEqual(['a'])
  })

  it('two concurrent evictions cannot spend the same disruption', async () => {
    await ns('we-race')
    await runningPod('we-race', 'a')
    await runningPod('we-race', 'b')
    await budget('we-race', { disruptionsAllowed: 1 })
    const results = await Promise.all(
      ['a', 'b'].map((n) =>
        api('POST', `/api/v1/namespaces/we-race/pods/${n}/eviction`, eviction(n)),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([201, 429])
    expect((await api('GET', '/api/v1/namespaces/we-race/pods')).json.items).toHaveLength(1)
  })

  it('refuses an Eviction naming another pod', async () => {
    await ns('we-name')
    await runningPod('we-name', 'a')
    const res = await api('POST', '/api/v1/namespaces/we-name/pods/a/eviction', eviction('b'))
    expect(res.status).toBe(400)
    expect(res.json.message).toBe('name in URL does not match name in Eviction object')
  })
})
