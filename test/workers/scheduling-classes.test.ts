import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { podManifest } from '../helpers'

const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses'
const RCS = '/apis/node.k8s.io/v1/runtimeclasses'
const PODS = '/api/v1/namespaces/default/pods'

const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
})

describe('PriorityClass', () => {
  it('starts with the system classes, which cannot be deleted', async () => {
    const list = await api('GET', PCS)
    expect(list.json.items.map((i: any) => [i.metadata.name, i.value, i.preemptionPolicy])).toEqual(
      expect.arrayContaining([
        ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
        ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ]),
    )
    const del = await api('DELETE', `${PCS}/system-cluster-critical`)
    expect(del.status).toBe(403)
    expect(del.json.message).toBe(
      'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted',
    )
  })

  it('keeps value and preemptionPolicy immutable and allows one global default', async () => {
    expect((await api('POST', PCS, pc('wk-default', 5, { globalDefault: true }))).status).toBe(201)
    const second = await api('POST', PCS, pc('wk-other', 6, { globalDefault: true }))
    expect(second.status).toBe(403)
    expect(second.json.message).toBe(
      'priorityclasses.scheduling.k8s.io "wk-other" is forbidden: PriorityClass wk-default is already marked as default. Only one default can exist',
    )
    expect((await api('GET', `${PCS}/wk-other`)).status).toBe(404)
    // Patching another class into a second default is refused too, and changes nothing.
    expect((await api('POST', PCS, pc('wk-plain', 6))).status).toBe(201)
    const patched = await api(
      'PATCH',
      `${PCS}/wk-plain`,
      { globalDefault: true },
      'application/merge-patch+json',
    )
    expect(patched.status).toBe(403)
    expect((await api('GET', `${PCS}/wk-plain`)).json.globalDefault).toBeUndefined()
    const changed = await api(
      'PATCH',
      `${PCS}/wk-plain`,
      { value: 7 },
      'application/merge-patch+json',
    )
    expect(changed.status).toBe(422)
    expect(changed.json.message).toContain('value: Forbidden: may not be changed in an update.')

    // Pods naming no class get the default one.
    const created = await api('POST', PODS, podManifest('wk-defaulted'))
    expect(created.status).toBe(201)
    expect(created.json.spec).toMatchObject({
      priorityClassName: 'wk-default',
      priority: 5,
      preemptionPolicy: 'PreemptLowerPriority',
    })
    // An update that leaves them out keeps them, as the plugin does.
    const { priority: _p, preemptionPolicy: _pp, ...specWithout } = created.json.spec
    const replaced = await api('PUT', `${PODS}/wk-defaulted`, {
      ...created.json,
      spec: specWithout,
    })
    expect(replaced.status).toBe(200)
    expect(replaced.json.spec).toMatchObject({
      priority: 5,
      preemptionPolicy: 'PreemptLowerPriority',
    })
    expect((await api('DELETE', `${PCS}/wk-default`)).status).toBe(200)
  })

  it('refuses a pod naming an unknown class with nothing stored', async () => {
    const res = await api(
      'POST',
      PODS,
      podManifest('wk-unknown', { spec: { priorityClassName: 'missing' } }),
    )
    expect(res.status).toBe(403)
    expect(res.json).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "wk-unknown" is forbidden: no PriorityClass with name missing was found',
    })
    expect((await api('GET', `${PODS}/wk-unknown`)).status).toBe(404)
  })
})

describe('RuntimeClass', () => {
  it('starts with one class per node runtime and admits runtimeClassName', async () => {
    const list = await api('GET', RCS)
    expect(
      list.json.items.map((i: any) => [
        i.metadata.name,
        i.handler,
        i.scheduling.nodeSelector['edgeplane.io/runtime'],
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['process', 'process', 'process'],
        ['docker', 'docker', 'docker'],
        ['sim', 'sim', 'sim'],
      ]),
    )
    expect(
      (
        await api('POST', RCS, {
          apiVersion: 'node.k8s.io/v1',
          kind: 'RuntimeClass',
          metadata: { name: 'wk-heavy' },
          handler: 'sim',
          overhead: { podFixed: { cpu: '250m' } },
        })
      ).status,
    ).toBe(201)
    const created = await api(
      'POST',
      PODS,
      podManifest('wk-heavy', { spec: { runtimeClassName: 'wk-heavy' } }),
    )
    expect(created.status).toBe(201)
    expect(created.json.spec.overhead).toEqual({ cpu: '250m' })
    const bad = await api('POST', RCS, {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'wk-bad' },
      handler: 'Bad_Handler',
    })
    expect(bad.status).toBe(422)
    expect(bad.json.details.causes[0].field).toBe('handler')
  })
})

describe('ReplicationController', () => {
  it('is scaled through its scale subresource, with its selector as a label string', async () => {
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'wk-rc' },
      spec: {
        template: {
          metadata: { labels: { app: 'wk-rc' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    }
    const created = await api('POST', '/api/v1/namespaces/default/replicationcontrollers', rc)
    expect(created.status).toBe(201)
    expect(created.json.spec).toMatchObject({ replicas: 1, selector: { app: 'wk-rc' } })
    const scale = await api(
      'PATCH',
      '/api/v1/namespaces/default/replicationcontrollers/wk-rc/scale',
      { spec: { replicas: 4 } },
      'application/merge-patch+json',
    )
    expect(scale.status).toBe(200)
    expect(scale.json).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 4 },
      status: { selector: 'app=wk-rc' },
    })
    expect(
      (await api('GET', '/api/v1/namespaces/default/replicationcontrollers/wk-rc')).json.spec
        .replicas,
    ).toBe(4)
  })
})

describe('server-side apply of a new pod', () => {
  it('passes priority admission like a create', async () => {
    const path = `${PODS}/wk-applied?fieldManager=test`
    const refused = await api(
      'PATCH',
      path,
      podManifest('wk-applied', { spec: { priorityClassName: 'missing' } }),
      'application/apply-patch+yaml',
    )
    expect(refused.status).toBe(403)
    const applied = await api(
      'PATCH',
      path,
      podManifest('wk-applied', { spec: { priorityClassName: 'system-cluster-critical' } }),
      'application/apply-patch+yaml',
    )
    expect(applied.status).toBe(201)
    expect(applied.json.spec.priority).toBe(2000000000)
  })
})
