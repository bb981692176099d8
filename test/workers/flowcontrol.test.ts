import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { runner } from './controller-runner'

const base = '/apis/flowcontrol.apiserver.k8s.io/v1'
const table = { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' }

const flowSchema = (name: string, levelName: string) => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: levelName },
    matchingPrecedence: 500,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [
          {
            kind: 'ServiceAccount',
            serviceAccount: { namespace: 'monitoring', name: 'prometheus' },
          },
        ],
        resourceRules: [
          {
            verbs: ['list', 'watch'],
            apiGroups: ['*'],
            resources: ['*'],
            clusterScope: true,
            namespaces: ['*'],
          },
        ],
      },
    ],
  },
})
const level = (name: string) => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'PriorityLevelConfiguration',
  metadata: { name },
  spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 16 } } } },
})

const dangling = (fs: any) => fs.status?.conditions?.find((c: any) => c.type === 'Dangling')
const enforced = (o: any) => o.status?.conditions?.find((c: any) => c.type === 'Enforced')
const notEnforced = {
  type: 'Enforced',
  status: 'False',
  reason: 'NotEnforced',
  message:
    'This server does not classify, queue or shed requests by API Priority and Fairness: this object is stored and validated only',
  lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
}

describe('flowcontrol.apiserver.k8s.io/v1', () => {
  it('serves the mandatory and suggested objects from the start, marked not enforced', async () => {
    const schemas = await api('GET', `${base}/flowschemas`)
    expect(schemas.status).toBe(200)
    expect(schemas.json.kind).toBe('FlowSchemaList')
    const names = schemas.json.items.map((o: any) => o.metadata.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'exempt',
        'catch-all',
        'probes',
        'system-leader-election',
        'endpoint-controller',
        'workload-leader-election',
        'system-node-high',
        'system-nodes',
        'kube-controller-manager',
        'kube-scheduler',
        'kube-system-service-accounts',
        'service-accounts',
        'global-default',
      ]),
    )
    const levels = (await api('GET', `${base}/prioritylevelconfigurations`)).json.items.map(
      (o: any) => o.metadata.name,
    )
    expect(levels.sort()).toEqual([
      'catch-all',
      'exempt',
      'global-default',
      'leader-election',
      'node-high',
      'system',
      'workload-high',
      'workload-low',
    ])
    const exempt = (await api('GET', `${base}/flowschemas/exempt`)).json
    expect(exempt.metadata.annotations).toMatchObject({
      'apf.kubernetes.io/autoupdate-spec': 'true',
      'flowcontrol.edgeplane.dev/enforced': expect.stringMatching(/^false: /),
    })
    expect(exempt.spec.matchingPrecedence).toBe(1)
  })

  it('stores a chart’s FlowSchema and level with a warning that nothing is enforced, and no APF response headers', async () => {
    const created = await api('POST', `${base}/flowschemas`, flowSchema('prometheus', 'monitoring'))
    expect(created.status).toBe(201)
    expect(created.headers.get('Warning')).toContain('API Priority and Fairness is not enforced')
    expect(created.json.metadata.annotations['flowcontrol.edgeplane.dev/enforced']).toMatch(
      /^false: this server does not queue/,
    )
    expect(created.json.metadata.generation).toBe(1)
    for (const header of ['X-Kubernetes-PF-FlowSchema-UID', 'X-Kubernetes-PF-PriorityLevel-UID'])
      expect(created.headers.get(header)).toBeNull()

    const pl = await api('POST', `${base}/prioritylevelconfigurations`, level('monitoring'))
    expect(pl.status).toBe(201)
    expect(pl.headers.get('Warning')).toContain('not enforced')
    expect(pl.json.spec.limited).toEqual({
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } },
    })
    const patched = await api(
      'PATCH',
      `${base}/prioritylevelconfigurations/monitoring`,
      { spec: { limited: { nominalConcurrencyShares: 5 } } },
      'application/merge-patch+json',
    )
    expect(patched.status).toBe(200)
    expect(patched.headers.get('Warning')).toContain('not enforced')
    expect(patched.json.metadata.generation).toBe(2)
  })

  it('keeps Dangling on each FlowSchema as its level comes and goes', async () => {
    expect(
      (await api('POST', `${base}/flowschemas`, flowSchema('batch-jobs', 'batch'))).status,
    ).toBe(201)
    const controller = runner('priority-and-fairness')
    await controller.pass()
    let fs = (await api('GET', `${base}/flowschemas/batch-jobs`)).json
    expect(dangling(fs)).toMatchObject({
      status: 'True',
      reason: 'NotFound',
      message:
        'This FlowSchema references the PriorityLevelConfiguration object named "batch" but there is no such object',
    })
    expect(dangling((await api('GET', `${base}/flowschemas/global-default`)).json)).toMatchObject({
      status: 'False',
      reason: 'Found',
    })

    expect((await api('POST', `${base}/prioritylevelconfigurations`, level('batch'))).status).toBe(
      201,
    )
    await controller.pass()
    fs = (await api('GET', `${base}/flowschemas/batch-jobs`)).json
    expect(dangling(fs)).toMatchObject({ status: 'False', reason: 'Found' })
    const rows = (await api('GET', `${base}/flowschemas`, undefined, undefined, table)).json.rows
    expect(rows.find((r: any) => r.cells[0] === 'batch-jobs').cells).toEqual([
      'batch-jobs',
      'batch',
      500,
      'ByUser',
      expect.any(String),
      'False',
    ])
    expect(rows[0].cells[0]).toBe('exempt')
  })

  it('says in an Enforced condition on each FlowSchema and level, bootstrap or not, that nothing is enforced', async () => {
    expect(
      (await api('POST', `${base}/flowschemas`, flowSchema('audit-readers', 'audit'))).status,
    ).toBe(201)
    expect((await api('POST', `${base}/prioritylevelconfigurations`, level('audit'))).status).toBe(
      201,
    )
    await runner('priority-and-fairness').pass()
    for (const path of [
      'flowschemas/audit-readers',
      'flowschemas/exempt',
      'prioritylevelconfigurations/audit',
      'prioritylevelconfigurations/workload-low',
    ]) {
      expect(enforced((await api('GET', `${base}/${path}`)).json), path).toEqual(notEnforced)
    }
    const fs = (await api('GET', `${base}/flowschemas/audit-readers`)).json
    expect(fs.status.conditions.map((c: any) => c.type)).toEqual(['Dangling', 'Enforced'])
    expect(dangling(fs)).toMatchObject({ status: 'False', reason: 'Found' })
  })

  it('brings back a deleted mandatory object and refuses to change its spec', async () => {
    expect((await api('DELETE', `${base}/flowschemas/catch-all`)).status).toBe(200)
    expect((await api('GET', `${base}/flowschemas/catch-all`)).status).toBe(404)
    await runner('priority-and-fairness').pass()
    const back = await api('GET', `${base}/flowschemas/catch-all`)
    expect(back.status).toBe(200)
    expect(back.json.spec.matchingPrecedence).toBe(10000)
    const changed = await api(
      'PATCH',
      `${base}/flowschemas/catch-all`,
      { spec: { matchingPrecedence: 9000 } },
      'application/merge-patch+json',
    )
    expect(changed.status).toBe(422)
    expect(changed.json.message).toContain("spec of 'catch-all' must equal the fixed value")
  })

  it('takes a server-side apply of a FlowSchema, and warns on it', async () => {
    const path = `${base}/flowschemas/applied?fieldManager=helm&fieldValidation=Strict`
    const res = await api(
      'PATCH',
      path,
      flowSchema('applied', 'global-default'),
      'application/apply-patch+yaml',
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('Warning')).toContain('not enforced')
    expect(res.json.metadata.managedFields.map((f: any) => f.manager)).toContain('helm')
    const again = await api(
      'PATCH',
      path,
      flowSchema('applied', 'global-default'),
      'application/apply-patch+yaml',
    )
    expect(again.status).toBe(200)
    expect(again.json.metadata.resourceVersion).toBe(res.json.metadata.resourceVersion)
  })

  it('refuses an invalid level with the fields named', async () => {
    const bad = await api('POST', `${base}/prioritylevelconfigurations`, {
      ...level('bad'),
      spec: {
        type: 'Limited',
        limited: { limitResponse: { type: 'Queue', queuing: { queues: 512, handSize: 8 } } },
      },
    })
    expect(bad.status).toBe(422)
    expect(bad.json.message).toBe(
      'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
    )
    expect((await api('GET', `${base}/prioritylevelconfigurations/bad`)).status).toBe(404)
  })

  it('is discovered cluster-scoped with a status subresource and no short names', async () => {
    const list = (await api('GET', base)).json
    const names = list.resources.map((r: any) => r.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'flowschemas',
        'flowschemas/status',
        'prioritylevelconfigurations',
        'prioritylevelconfigurations/status',
      ]),
    )
    const fs = list.resources.find((r: any) => r.name === 'flowschemas')
    expect(fs).toMatchObject({ namespaced: false, kind: 'FlowSchema', singularName: 'flowschema' })
    expect(fs.shortNames).toBeUndefined()
  })
})
