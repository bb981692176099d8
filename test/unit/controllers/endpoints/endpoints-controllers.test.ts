import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  computeSubsets,
  findPort,
  reconcileEndpoints as declaredReconcileEndpoints,
  endpointsController,
} from '../../../../src/controllers/endpoints'
import {
  desiredSlices,
  reconcileEndpointSlices as declaredReconcileEndpointSlices,
  endpointSliceController,
} from '../../../../src/controllers/endpointslice'
import { endpoints, endpointSlices, pods, services } from '../../../../src/controllers/resources'
import type { Cache, ResourceRef } from '../../../../src/controllers/runtime/types'
import { projectedView } from '../../../fixtures/projected'
import { newPod } from '../../../helpers'

/** The reconcile as the controller's host runs it, on the fields its projection keeps. */
const reconcileEndpointSlices = (
  key: string,
  cache: Cache,
  ...rest: Parameters<typeof declaredReconcileEndpointSlices> extends [string, Cache, ...infer R]
    ? R
    : never
) =>
  declaredReconcileEndpointSlices(
    key,
    projectedView(cache, (r) => endpointSliceController().watches.reads?.(r)),
    ...rest,
  )

/** The reconcile as the controller's host runs it, on the fields its projection keeps. */
const reconcileEndpoints = (
  key: string,
  cache: Cache,
  ...rest: Parameters<typeof declaredReconcileEndpoints> extends [string, Cache, ...infer R]
    ? R
    : never
) =>
  declaredReconcileEndpoints(
    key,
    projectedView(cache, (r) => endpointsController().watches.reads?.(r)),
    ...rest,
  )

class MapCache implements Cache {
  private readonly items = new Map<string, KubeObject>()
  constructor(entries: [ResourceRef, KubeObject][]) {
    for (const [r, o] of entries)
      this.items.set(`${r.plural}/${o.metadata.namespace}/${o.metadata.name}`, o)
  }
  get(r: ResourceRef, ns: string | undefined, name: string) {
    return this.items.get(`${r.plural}/${ns}/${name}`)
  }
  list(r: ResourceRef, ns?: string) {
    return [...this.items.entries()]
      .filter(
        ([k, o]) =>
          k.startsWith(`${r.plural}/`) && (ns === undefined || o.metadata.namespace === ns),
      )
      .map(([, o]) => o)
  }
}

function service(spec: Record<string, unknown>, name = 'web'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default', uid: `svc-${name}`, labels: { app: 'web' } },
    spec: { clusterIP: '10.96.1.1', selector: { app: 'web' }, ...spec },
  }
}

interface PodOpts {
  ip?: string
  ready?: boolean
  phase?: string
  deleting?: boolean
  labels?: Record<string, string>
  ports?: unknown[]
}
/** A pod of app=web on node n1 serving container ports (http 8080 unless told), Ready unless told. */
function servingPod(name: string, o: PodOpts = {}): KubeObject {
  return newPod(name, {
    labels: o.labels ?? { app: 'web' },
    nodeName: 'n1',
    containers: [
      { name: 'c', ports: o.ports ?? [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] },
    ],
    status: {
      phase: o.phase ?? 'Running',
      podIP: o.ip ?? '',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
    deletionTimestamp: o.deleting ? '2025-01-01T00:00:00Z' : undefined,
  })
}

const ref = (name: string) => ({ kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` })

describe('findPort', () => {
  const p = servingPod('a')
  it.each([
    ['a number is used as is', 9090, 9090],
    ['a name resolves to the container port', 'http', 8080],
    ['an unknown name resolves to nothing', 'grpc', undefined],
  ])('%s', (_, targetPort, want) => {
    expect(findPort(p, { port: 80, protocol: 'TCP', targetPort })).toBe(want)
  })
  it('matches the protocol too', () => {
    expect(findPort(p, { port: 80, protocol: 'UDP', targetPort: 'http' })).toBeUndefined()
  })
})

describe('computeSubsets', () => {
  const cases: { name: string; svc: KubeObject; pods: KubeObject[]; want: unknown }[] = [
    {
      name: 'ready and not-ready addresses, sorted by IP, with the resolved port',
      svc: service({ ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] }),
      pods: [
        servingPod('b', { ip: '10.0.0.2' }),
        servingPod('a', { ip: '10.0.0.1' }),
        servingPod('c', { ip: '10.0.0.3', ready: false }),
      ],
      want: [
        {
          addresses: [
            { ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') },
            { ip: '10.0.0.2', nodeName: 'n1', targetRef: ref('b') },
          ],
          notReadyAddresses: [{ ip: '10.0.0.3', nodeName: 'n1', targetRef: ref('c') }],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
    },
    {
      name: 'pods without an IP, finished or terminating are left out',
      svc: service({ ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] }),
      pods: [
        servingPod('a'),
        servingPod('b', { ip: '10.0.0.2', phase: 'Succeeded' }),
        servingPod('c', { ip: '10.0.0.3', deleting: true }),
      ],
      want: [],
    },
    {
      name: 'named target ports; a pod without the name gets no address',
      svc: service({ ports: [{ name: 'web', port: 80, targetPort: 'http', protocol: 'TCP' }] }),
      pods: [
        servingPod('a', { ip: '10.0.0.1' }),
        servingPod('b', {
          ip: '10.0.0.2',
          ports: [{ name: 'http', containerPort: 9000, protocol: 'TCP' }],
        }),
        servingPod('c', { ip: '10.0.0.3', ports: [] }),
      ],
      want: [
        {
          addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }],
          ports: [{ name: 'web', port: 8080, protocol: 'TCP' }],
        },
        {
          addresses: [{ ip: '10.0.0.2', nodeName: 'n1', targetRef: ref('b') }],
          ports: [{ name: 'web', port: 9000, protocol: 'TCP' }],
        },
      ],
    },
    {
      name: 'a headless service without ports lists addresses alone',
      svc: service({ clusterIP: 'None' }),
      pods: [servingPod('a', { ip: '10.0.0.1' })],
      want: [{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }] }],
    },
    {
      name: 'publishNotReadyAddresses makes every address ready',
      svc: service({
        publishNotReadyAddresses: true,
        ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
      }),
      pods: [servingPod('a', { ip: '10.0.0.1', ready: false })],
      want: [
        {
          addresses: [{ ip: '10.0.0.1', nodeName: 'n1', targetRef: ref('a') }],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
    },
  ]
  it.each(cases)('$name', ({ svc, pods: list, want }) => {
    expect(computeSubsets(svc, list)).toEqual(want)
  })
})

describe('reconcileEndpoints', () => {
  const svc = service({ ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] })
  const a = servingPod('a', { ip: '10.0.0.1' })

  it('creates the Endpoints named as the service', () => {
    const { actions } = reconcileEndpoints(
      'default/web',
      new MapCache([
        [services, svc],
        [pods, a],
      ]),
    )
    expect(actions).toHaveLength(1)
    expect(actions[0]).toMatchObject({
      type: 'create',
      resource: endpoints,
      object: {
        kind: 'Endpoints',
        metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      },
    })
  })

  it('writes nothing when unchanged', () => {
    const current = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, resourceVersion: '5' },
      subsets: computeSubsets(svc, [a]),
    }
    expect(
      reconcileEndpoints(
        'default/web',
        new MapCache([
          [services, svc],
          [pods, a],
          [endpoints, current],
        ]),
      ).actions,
    ).toEqual([])
  })

  it('updates with the stored resourceVersion when pods change', () => {
    const current = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, resourceVersion: '5' },
      subsets: [],
    }
    const [action] = reconcileEndpoints(
      'default/web',
      new MapCache([
        [services, svc],
        [pods, a],
        [endpoints, current],
      ]),
    ).actions
    expect(action).toMatchObject({
      type: 'update',
      object: {
        metadata: { resourceVersion: '5' },
        subsets: [{ addresses: [{ ip: '10.0.0.1' }] }],
      },
    })
  })

  it('deletes the Endpoints of a service that is gone', () => {
    const current = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default', uid: 'e1' },
    }
    expect(reconcileEndpoints('default/web', new MapCache([[endpoints, current]])).actions).toEqual(
      [
        {
          type: 'delete',
          resource: endpoints,
          namespace: 'default',
          name: 'web',
          preconditions: { uid: 'e1' },
        },
      ],
    )
  })

  it('leaves services without a selector alone', () => {
    const manual = service({ selector: undefined, ports: [{ port: 80 }] })
    delete (manual.spec as Record<string, unknown>).selector
    expect(
      reconcileEndpoints(
        'default/web',
        new MapCache([
          [services, manual],
          [pods, a],
        ]),
      ).actions,
    ).toEqual([])
  })

  it("labels a headless service's Endpoints", () => {
    const [action] = reconcileEndpoints(
      'default/web',
      new MapCache([
        [services, service({ clusterIP: 'None' })],
        [pods, a],
      ]),
    ).actions
    expect(action).toMatchObject({
      object: { metadata: { labels: { app: 'web', 'service.kubernetes.io/headless': '' } } },
    })
  })
})

describe('EndpointSlices', () => {
  const svc = service({ ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] })

  it('gives endpoints ready, serving and terminating conditions', () => {
    const slices = desiredSlices(svc, [
      servingPod('a', { ip: '10.0.0.1' }),
      servingPod('b', { ip: '10.0.0.2', ready: false }),
      servingPod('c', { ip: '10.0.0.3', deleting: true }),
    ])
    expect(slices).toEqual([
      {
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        endpoints: [
          {
            addresses: ['10.0.0.1'],
            conditions: { ready: true, serving: true, terminating: false },
            targetRef: ref('a'),
            nodeName: 'n1',
          },
          {
            addresses: ['10.0.0.2'],
            conditions: { ready: false, serving: false, terminating: false },
            targetRef: ref('b'),
            nodeName: 'n1',
          },
          {
            addresses: ['10.0.0.3'],
            conditions: { ready: false, serving: true, terminating: true },
            targetRef: { ...ref('c') },
            nodeName: 'n1',
          },
        ],
      },
    ])
  })

  it('keeps an empty placeholder when no pod matches', () => {
    expect(desiredSlices(svc, [])).toEqual([{ ports: [], endpoints: [] }])
  })

  it('creates an owned, labelled slice, then leaves it alone', () => {
    const a = servingPod('a', { ip: '10.0.0.1' })
    const { actions } = reconcileEndpointSlices(
      'default/web',
      new MapCache([
        [services, svc],
        [pods, a],
      ]),
    )
    expect(actions).toHaveLength(1)
    const created = (actions[0] as { object: KubeObject }).object
    expect(created).toMatchObject({
      apiVersion: 'discovery.k8s.io/v1',
      addressType: 'IPv4',
      metadata: {
        generateName: 'web-',
        labels: {
          app: 'web',
          'kubernetes.io/service-name': 'web',
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
        },
        ownerReferences: [{ kind: 'Service', name: 'web', uid: 'svc-web', controller: true }],
      },
    })
    const stored = {
      ...created,
      metadata: { ...created.metadata, name: 'web-abcde', uid: 's1', resourceVersion: '3' },
    }
    expect(
      reconcileEndpointSlices(
        'default/web',
        new MapCache([
          [services, svc],
          [pods, a],
          [endpointSlices, stored],
        ]),
      ).actions,
    ).toEqual([])
    const b = servingPod('b', { ip: '10.0.0.2' })
    const [update] = reconcileEndpointSlices(
      'default/web',
      new MapCache([
        [services, svc],
        [pods, a],
        [pods, b],
        [endpointSlices, stored],
      ]),
    ).actions
    expect(update).toMatchObject({
      type: 'update',
      object: { metadata: { name: 'web-abcde', resourceVersion: '3' } },
    })
    expect(
      (update as unknown as { object: { endpoints: unknown[] } }).object.endpoints,
    ).toHaveLength(2)
  })
})
