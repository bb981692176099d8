import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods } from '../../../../src/controllers/resources'
import {
  reconcileResourceQuota as declaredReconcileResourceQuota,
  resourceQuotaController,
  resourceQuotas,
} from '../../../../src/controllers/resourcequota'
import { quotaSyncPeriodMs } from '../../../../src/controllers/resourcequota/reconcile'
import { quotaWakesOn } from '../../../../src/controllers/resourcequota/wakes'
import type { Cache, ResourceRef } from '../../../../src/controllers/runtime/types'
import { projectedView } from '../../../fixtures/projected'
import { newPod } from '../../../helpers'

/** The reconcile as the controller's host runs it, on the fields its projection keeps. */
const reconcileResourceQuota = (
  key: string,
  cache: Cache,
  ...rest: Parameters<typeof declaredReconcileResourceQuota> extends [string, Cache, ...infer R]
    ? R
    : never
) =>
  declaredReconcileResourceQuota(
    key,
    projectedView(cache, (r) => resourceQuotaController().watches.reads?.(r)),
    ...rest,
  )

const now = Date.parse('2025-06-01T12:00:00Z')
const services: ResourceRef = { group: '', version: 'v1', plural: 'services' }
const deployments: ResourceRef = { group: 'apps', version: 'v1', plural: 'deployments' }

class Objects implements Cache {
  constructor(private readonly items: [ResourceRef, KubeObject][]) {}
  get(r: ResourceRef, namespace: string | undefined, name: string) {
    return this.list(r, namespace).find((o) => o.metadata.name === name)
  }
  list(r: ResourceRef, namespace?: string) {
    return this.items
      .filter(
        ([ref, o]) =>
          ref.group === r.group &&
          ref.plural === r.plural &&
          (namespace === undefined || o.metadata.namespace === namespace),
      )
      .map(([, o]) => o)
  }
}

/** A pod of namespace ns (unless told), Running unless told, requesting and limited to `cpu` if given. */
const cpuPod = (name: string, cpu?: string, phase = 'Running', namespace = 'ns'): KubeObject =>
  newPod(name, { namespace, phase, ...(cpu ? { requests: { cpu }, limits: { cpu } } : {}) })

const quota = (hard: Record<string, string>, status?: unknown): KubeObject => ({
  metadata: { name: 'q', namespace: 'ns', resourceVersion: '7' },
  spec: { hard },
  ...(status ? { status } : {}),
})

function statusOf(q: KubeObject, ...rest: [ResourceRef, KubeObject][]) {
  const actions = reconcileResourceQuota(
    'ns/q',
    new Objects([[resourceQuotas, q], ...rest]),
    now,
  ).actions
  const a = actions[0]
  return a?.type === 'updateStatus' ? a.object.status : undefined
}

describe('resource quota controller', () => {
  it('copies hard and counts what the namespace uses, finished pods only as count/pods', () => {
    const status = statusOf(
      quota({
        pods: '10',
        'requests.cpu': '2',
        'count/pods': '10',
        services: '5',
        'count/deployments.apps': '3',
        'count/widgets.example.com': '1',
      }),
      [pods, cpuPod('a', '250m')],
      [pods, cpuPod('b', '500m')],
      [pods, cpuPod('done', '1', 'Succeeded')],
      [pods, cpuPod('elsewhere', '1', 'Running', 'other')],
      [deployments, { metadata: { name: 'd', namespace: 'ns' } }],
    )
    expect(status).toEqual({
      hard: {
        'count/deployments.apps': '3',
        'count/pods': '10',
        'count/widgets.example.com': '1',
        pods: '10',
        'requests.cpu': '2',
        services: '5',
      },
      // a resource nothing tracks is not reported (and not enforced)
      used: {
        'count/deployments.apps': '1',
        'count/pods': '3',
        pods: '2',
        'requests.cpu': '750m',
        services: '0',
      },
    })
  })

  it('writes nothing when the status is current, and keeps the resourceVersion it read', () => {
    const current = { hard: { pods: '2' }, used: { pods: '1' } }
    expect(statusOf(quota({ pods: '2' }, current), [pods, cpuPod('a')])).toBeUndefined()
    const actions = reconcileResourceQuota(
      'ns/q',
      new Objects([
        [resourceQuotas, quota({ pods: '2' }, current)],
        [pods, cpuPod('a')],
        [pods, cpuPod('b')],
      ]),
      now,
    ).actions
    expect(actions).toMatchObject([
      {
        type: 'updateStatus',
        object: { metadata: { resourceVersion: '7' }, status: { used: { pods: '2' } } },
      },
    ])
  })

  it('comes back to every quota once a sync period, current or not, and to no key without a quota', () => {
    const current = { hard: { pods: '2' }, used: { pods: '1' } }
    const cache = (q?: KubeObject) =>
      new Objects([
        ...(q ? [[resourceQuotas, q] as [ResourceRef, KubeObject]] : []),
        [pods, cpuPod('a')],
      ])
    expect(reconcileResourceQuota('ns/q', cache(quota({ pods: '2' }, current)), now)).toEqual({
      actions: [],
      requeueAfterMs: quotaSyncPeriodMs,
    })
    expect(
      reconcileResourceQuota('ns/q', cache(quota({ pods: '3' }, current)), now).requeueAfterMs,
    ).toBe(5 * 60 * 1000)
    expect(reconcileResourceQuota('ns/q', cache(), now).requeueAfterMs).toBeUndefined()
  })

  it('wakes when usage is given back, not on creates that admission already counted', () => {
    expect(quotaWakesOn(pods, 'ADDED', cpuPod('a'))).toBe(false)
    expect(quotaWakesOn(pods, 'DELETED', cpuPod('a'))).toBe(true)
    expect(quotaWakesOn(pods, 'MODIFIED', cpuPod('a', undefined, 'Succeeded'), cpuPod('a'))).toBe(
      true,
    )
    expect(quotaWakesOn(pods, 'MODIFIED', cpuPod('a'), cpuPod('a', undefined, 'Pending'))).toBe(
      false,
    )
    expect(
      quotaWakesOn(
        services,
        'MODIFIED',
        { metadata: { name: 's' }, spec: { type: 'LoadBalancer' } },
        { metadata: { name: 's' }, spec: { type: 'ClusterIP' } },
      ),
    ).toBe(true)
    expect(quotaWakesOn(resourceQuotas, 'ADDED', quota({ pods: '1' }))).toBe(true)
    // a quota's limits changing, or its status not yet showing them, asks for a recount ...
    const counted = quota({ pods: '1' }, { hard: { pods: '1' }, used: { pods: '0' } })
    expect(
      quotaWakesOn(resourceQuotas, 'MODIFIED', quota({ pods: '2' }, counted.status), counted),
    ).toBe(true)
    expect(quotaWakesOn(resourceQuotas, 'MODIFIED', counted, quota({ pods: '1' }))).toBe(false)
    expect(
      quotaWakesOn(
        resourceQuotas,
        'MODIFIED',
        quota({ pods: '1' }, { used: { pods: '0' } }),
        quota({ pods: '1' }),
      ),
    ).toBe(true)
    expect(
      quotaWakesOn(
        resourceQuotas,
        'MODIFIED',
        quota({ cpu: '1000m' }, { hard: { cpu: '1' }, used: { cpu: '0' } }),
        quota({ cpu: '1000m' }),
      ),
    ).toBe(false)
    // ... admission's charge does not: the object charged for may not be stored yet
    expect(
      quotaWakesOn(
        resourceQuotas,
        'MODIFIED',
        quota({ pods: '1' }, { hard: { pods: '1' }, used: { pods: '1' } }),
        counted,
      ),
    ).toBe(false)
  })
})
