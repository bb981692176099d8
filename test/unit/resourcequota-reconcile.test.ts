import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../src/apimachinery/types'
import { pods } from '../../src/controllers/resources'
import { reconcileResourceQuota as declaredReconcileResourceQuota, resourceQuotaController, resourceQuotas } from '../../src/controllers/resourcequota'
import { quotaWakesOn } from '../../src/controllers/resourcequota/wakes'
import type { Cache, ResourceRef } from '../../src/controllers/runtime/types'
import { projectedView } from '../fixtures/projected'

/** The reconcile as the controller's host runs it, on the fields its projection keeps. */
const reconcileResourceQuota = (key: string, cache: Cache, ...rest: Parameters<typeof declaredReconcileResourceQuota> extends [string, Cache, ...infer R] ? R : never) =>
  declaredReconcileResourceQuota(key, projectedView(cache, (r) => resourceQuotaController().watches.reads?.(r)), ...rest)

const now = Date.parse('2025-06-01T12:00:00Z')
const services: ResourceRef = { group: '', version: 'v1', plural: 'services' }
const deployments: ResourceRef = { group: 'apps', version: 'v1', plural: 'deployments' }

class Objects implements Cache {
  constructor(private readonly items: [ResourceRef, KubeObject][]) {}
  get(r: ResourceRef, namespace: string | undefined, name: string) {
    return this.list(r, namespace).find((o) => o.metadata.name === name)
  }
  list(r: ResourceRef, namespace?: string) {
    return this.items.filter(([ref, o]) => ref.group === r.group && ref.plural === r.plural && (namespace === undefined || o.metadata.namespace === namespace)).map(([, o]) => o)
  }
}

const pod = (name: string, cpu?: string, phase = 'Running', namespace = 'ns'): KubeObject => ({
  metadata: { name, namespace },
  spec: { containers: [{ name: 'c', ...(cpu ? { resources: { requests: { cpu }, limits: { cpu } } } : {}) }] },
  status: { phase },
})

const quota = (hard: Record<string, string>, status?: unknown): KubeObject => ({ metadata: { name: 'q', namespace: 'ns', resourceVersion: '7' }, spec: { hard }, ...(status ? { status } : {}) })

function statusOf(q: KubeObject, ...rest: [ResourceRef, KubeObject][]) {
  const actions = reconcileResourceQuota('ns/q', new Objects([[resourceQuotas, q], ...rest]), now).actions
  const a = actions[0]
  return a?.type === 'updateStatus' ? a.object.status : undefined
}

describe('resource quota controller', () => {
  it('copies hard and counts what the namespace uses, finished pods only as count/pods', () => {
    const status = statusOf(
      quota({ pods: '10', 'requests.cpu': '2', 'count/pods': '10', services: '5', 'count/deployments.apps': '3', 'count/widgets.example.com': '1' }),
      [pods, pod('a', '250m')],
      [pods, pod('b', '500m')],
      [pods, pod('done', '1', 'Succeeded')],
      [pods, pod('elsewhere', '1', 'Running', 'other')],
      [deployments, { metadata: { name: 'd', namespace: 'ns' } }],
    )
    expect(status).toEqual({
      hard: { 'count/deployments.apps': '3', 'count/pods': '10', 'count/widgets.example.com': '1', pods: '10', 'requests.cpu': '2', services: '5' },
      // a resource nothing tracks is not reported (and not enforced)
      used: { 'count/deployments.apps': '1', 'count/pods': '3', pods: '2', 'requests.cpu': '750m', services: '0' },
    })
  })

  it('writes nothing when the status is current, and keeps the resourceVersion it read', () => {
    const current = { hard: { pods: '2' }, used: { pods: '1' } }
    expect(statusOf(quota({ pods: '2' }, current), [pods, pod('a')])).toBeUndefined()
    const actions = reconcileResourceQuota('ns/q', new Objects([[resourceQuotas, quota({ pods: '2' }, current)], [pods, pod('a')], [pods, pod('b')]]), now).actions
    expect(actions).toMatchObject([{ type: 'updateStatus', object: { metadata: { resourceVersion: '7' }, status: { used: { pods: '2' } } } }])
  })

  it('wakes when usage is given back, not on creates that admission already counted', () => {
    expect(quotaWakesOn(pods, 'ADDED', pod('a'))).toBe(false)
    expect(quotaWakesOn(pods, 'DELETED', pod('a'))).toBe(true)
    expect(quotaWakesOn(pods, 'MODIFIED', pod('a', undefined, 'Succeeded'), pod('a'))).toBe(true)
    expect(quotaWakesOn(pods, 'MODIFIED', pod('a'), pod('a', undefined, 'Pending'))).toBe(false)
    expect(quotaWakesOn(services, 'MODIFIED', { metadata: { name: 's' }, spec: { type: 'LoadBalancer' } }, { metadata: { name: 's' }, spec: { type: 'ClusterIP' } })).toBe(true)
    expect(quotaWakesOn(resourceQuotas, 'ADDED', quota({ pods: '1' }))).toBe(true)
    // a quota's limits changing, or its status not yet showing them, asks for a recount ...
    const counted = quota({ pods: '1' }, { hard: { pods: '1' }, used: { pods: '0' } })
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', quota({ pods: '2' }, counted.status), counted)).toBe(true)
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', counted, quota({ pods: '1' }))).toBe(false)
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', quota({ pods: '1' }, { used: { pods: '0' } }), quota({ pods: '1' }))).toBe(true)
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', quota({ cpu: '1000m' }, { hard: { cpu: '1' }, used: { cpu: '0' } }), quota({ cpu: '1000m' }))).toBe(false)
    // ... admission's charge does not: the object charged for may not be stored yet
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', quota({ pods: '1' }, { hard: { pods: '1' }, used: { pods: '1' } }), counted)).toBe(false)
  })
})
