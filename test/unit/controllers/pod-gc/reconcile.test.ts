import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { describeAction, newNode, newPod, res } from '../../../helpers'
import {
  OUT_OF_SERVICE_TAINT,
  podGcController as declaredPodGcController,
  QUARANTINE_KEY,
  TERMINATED_KEY,
} from '../../../../src/controllers/pod-gc'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const podGcController = (...args: Parameters<typeof declaredPodGcController>) =>
  withProjections(declaredPodGcController(...args))

const t0 = Date.parse('2025-06-01T12:00:00Z')

/** A Ready pod, Running once on a node; created 2025-01-01 unless told. */
function gcPod(
  name: string,
  f: {
    node?: string
    phase?: string
    reason?: string
    created?: string
    deleting?: boolean
    finalizers?: string[]
    grace?: number
    namespace?: string
  } = {},
): KubeObject {
  const metadata: Partial<KubeObject['metadata']> = {}
  if (f.finalizers) metadata.finalizers = f.finalizers
  if (f.deleting)
    Object.assign(metadata, {
      deletionTimestamp: '2025-06-01T11:59:00Z',
      deletionGracePeriodSeconds: f.grace ?? 30,
    })
  return newPod(name, {
    namespace: f.namespace,
    creationTimestamp: f.created ?? '2025-01-01T00:00:00Z',
    nodeName: f.node,
    status: {
      phase: f.phase ?? (f.node ? 'Running' : 'Pending'),
      ...(f.reason ? { reason: f.reason } : {}),
      conditions: [{ type: 'Ready', status: 'True' }],
    },
    metadata,
  })
}

const storeOf = (...objects: KubeObject[]) =>
  MemoryCache.from(objects.map((o) => [o.kind === 'Node' ? res.nodes : res.pods, o]))

describe('pod GC: terminated pods over the threshold', () => {
  const gc = podGcController({ terminatedThreshold: 3 })
  const cluster = () =>
    storeOf(
      newNode('n1'),
      gcPod('running-old', { node: 'n1', created: '2025-01-01T00:00:00Z' }),
      gcPod('done-1', { node: 'n1', phase: 'Succeeded', created: '2025-01-02T00:00:00Z' }),
      gcPod('held', {
        node: 'n1',
        phase: 'Failed',
        created: '2025-01-03T00:00:00Z',
        deleting: true,
        grace: 0,
        finalizers: ['example.com/hold'],
      }),
      gcPod('done-4', { node: 'n1', phase: 'Succeeded', created: '2025-01-04T00:00:00Z' }),
      gcPod('done-5', { node: 'n1', phase: 'Succeeded', created: '2025-01-05T00:00:00Z' }),
      gcPod('evicted', {
        node: 'n1',
        phase: 'Failed',
        reason: 'Evicted',
        created: '2025-01-06T00:00:00Z',
      }),
      gcPod('b-same-age', { node: 'n1', phase: 'Failed', created: '2025-01-07T00:00:00Z' }),
      gcPod('a-same-age', { node: 'n1', phase: 'Failed', created: '2025-01-07T00:00:00Z' }),
    )

  it('deletes the excess, evicted first, then oldest, skipping pods already being deleted', async () => {
    // 7 terminated, threshold 3: the 4 first in order are evicted, done-1, held (already going), done-4
    expect(gc.reconcile(TERMINATED_KEY, cluster(), t0).actions.map(describeAction)).toEqual([
      'delete pods default/evicted grace=0 uid=uid-evicted',
      'delete pods default/done-1 grace=0 uid=uid-done-1',
      'delete pods default/done-4 grace=0 uid=uid-done-4',
    ])
  })

  it('converges to the threshold and breaks age ties by name', async () => {
    const store = cluster()
    await store.applyAll(gc.reconcile(TERMINATED_KEY, store, t0).actions)
    expect(store.names(res.pods)).toEqual([
      'a-same-age',
      'b-same-age',
      'done-5',
      'held',
      'running-old',
    ])
    // still 4 terminated (held counts until its finalizer goes): the oldest deletable one goes
    expect(gc.reconcile(TERMINATED_KEY, store, t0).actions.map(describeAction)).toEqual([])
    const held = store.get(res.pods, 'default', 'held')!
    await store.applyAll([
      {
        type: 'update',
        resource: res.pods,
        object: { ...held, metadata: { ...held.metadata, finalizers: [] } },
      },
    ])
    store.put(
      res.pods,
      gcPod('c-new', { node: 'n1', phase: 'Failed', created: '2025-02-01T00:00:00Z' }),
    )
    expect(gc.reconcile(TERMINATED_KEY, store, t0).actions.map(describeAction)).toEqual([
      'delete pods default/done-5 grace=0 uid=uid-done-5',
    ])
  })

  it.each([
    ['under the threshold', podGcController({ terminatedThreshold: 10 })],
    ['with the sweep turned off', podGcController({ terminatedThreshold: 0 })],
  ])('does nothing %s', (_, controller) => {
    expect(controller.reconcile(TERMINATED_KEY, cluster(), t0).actions).toEqual([])
  })

  it('uses upstream’s default threshold', async () => {
    const store = storeOf(
      ...Array.from({ length: 12_501 }, (_, i) =>
        gcPod(`p${String(i).padStart(5, '0')}`, { phase: 'Succeeded', node: 'n1' }),
      ),
      newNode('n1'),
    )
    expect(
      podGcController().reconcile(TERMINATED_KEY, store, t0).actions.map(describeAction),
    ).toEqual(['delete pods default/p00000 grace=0 uid=uid-p00000'])
  })
})

describe('pod GC: pods whose node is gone', () => {
  const failedPatch = (name: string) =>
    `patch pods default/${name}/status ${JSON.stringify({
      status: {
        phase: 'Failed',
        conditions: [
          { type: 'Ready', status: 'True' },
          {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'DeletionByPodGC',
            message: 'PodGC: node no longer exists',
            lastTransitionTime: '2025-06-01T12:00:40Z',
          },
        ],
      },
    })}`

  it('waits out the quarantine, then marks the pod Failed and force-deletes it', async () => {
    const gc = podGcController({ quarantineMs: 40_000 })
    const store = storeOf(gcPod('p', { node: 'gone' }), gcPod('q', { node: 'gone' }))
    // the clock starts at first sight, in the controller's memory
    expect(store.reconcile(gc, 'default/p', t0)).toEqual({
      actions: [],
      requeueAfterMs: 40_000,
      memory: new Map([['gone', t0]]),
    })
    // the quarantine is per node: a second pod on it waits only for what is left
    expect(store.reconcile(gc, 'default/q', t0 + 30_000)).toEqual({
      actions: [],
      requeueAfterMs: 10_000,
    })
    const out = store.reconcile(gc, 'default/p', t0 + 40_000)
    expect(out.actions.map(describeAction)).toEqual([
      failedPatch('p'),
      'delete pods default/p grace=0 uid=uid-p',
    ])
    await store.applyAll(out.actions)
    expect(store.names(res.pods)).toEqual(['q'])
  })

  it('force-deletes a terminating pod on a missing node, and deletes a finished one without marking it', async () => {
    const gc = podGcController({ quarantineMs: 40_000 })
    const store = storeOf(
      gcPod('terminating', { node: 'gone', deleting: true }),
      gcPod('finished', { node: 'gone', phase: 'Succeeded' }),
    )
    store.reconcile(gc, 'default/terminating', t0)
    expect(
      store.reconcile(gc, 'default/terminating', t0 + 40_000).actions.map(describeAction),
    ).toEqual([
      failedPatch('terminating'),
      'delete pods default/terminating grace=0 uid=uid-terminating',
    ])
    expect(
      store.reconcile(gc, 'default/finished', t0 + 40_000).actions.map(describeAction),
    ).toEqual(['delete pods default/finished grace=0 uid=uid-finished'])
    await store.applyAll(store.reconcile(gc, 'default/terminating', t0 + 40_000).actions)
    expect(store.names(res.pods)).toEqual(['finished'])
  })

  it('restarts the quarantine when the node comes back in between', async () => {
    const gc = podGcController({ quarantineMs: 40_000 })
    const store = storeOf(gcPod('p', { node: 'flaky' }))
    store.reconcile(gc, 'default/p', t0)
    store.put(res.nodes, newNode('flaky'))
    expect(store.reconcile(gc, 'default/p', t0 + 20_000)).toEqual({
      actions: [],
      memory: new Map([['flaky', undefined]]),
    })
    store.remove(res.nodes, undefined, 'flaky')
    expect(store.reconcile(gc, 'default/p', t0 + 45_000)).toEqual({
      actions: [],
      requeueAfterMs: 40_000,
      memory: new Map([['flaky', t0 + 45_000]]),
    })
  })

  it('forgets the clock of a node that came back, or that no pod waits on any more, in its quarantine sweep', async () => {
    const gc = podGcController({ quarantineMs: 40_000 })
    const store = storeOf(
      gcPod('p', { node: 'back' }),
      gcPod('q', { node: 'gone' }),
      gcPod('r', { node: 'still' }),
    )
    for (const key of ['default/p', 'default/q', 'default/r']) store.reconcile(gc, key, t0)
    expect(store.memoryOf('pod-gc').keys().sort()).toEqual(['back', 'gone', 'still'])
    store.put(res.nodes, newNode('back'))
    store.remove(res.pods, 'default', 'q')
    expect(store.reconcile(gc, QUARANTINE_KEY, t0 + 1000)).toEqual({
      actions: [],
      memory: new Map([
        ['back', undefined],
        ['gone', undefined],
      ]),
    })
    expect(store.memoryOf('pod-gc').keys()).toEqual(['still'])
    expect(store.reconcile(gc, QUARANTINE_KEY, t0 + 2000)).toEqual({ actions: [] })
  })

  const cases: { name: string; objects: KubeObject[]; want: string[] }[] = [
    {
      name: 'a running pod on a live node',
      objects: [newNode('n1'), gcPod('p', { node: 'n1' })],
      want: [],
    },
    {
      name: 'a terminating pod on a live node',
      objects: [newNode('n1'), gcPod('p', { node: 'n1', deleting: true })],
      want: [],
    },
    { name: 'a pending pod', objects: [gcPod('p')], want: [] },
    {
      name: 'a terminating pod that was never scheduled',
      objects: [gcPod('p', { deleting: true, finalizers: ['x'] })],
      want: [
        `patch pods default/p/status ${JSON.stringify({ status: { phase: 'Failed' } })}`,
        'delete pods default/p grace=0 uid=uid-p',
      ],
    },
    {
      name: 'a terminating pod on an out-of-service node',
      objects: [
        newNode('n1', {
          ready: false,
          taints: [{ key: OUT_OF_SERVICE_TAINT, value: 'nodeshutdown', effect: 'NoExecute' }],
        }),
        gcPod('p', { node: 'n1', deleting: true }),
      ],
      want: [
        `patch pods default/p/status ${JSON.stringify({ status: { phase: 'Failed' } })}`,
        'delete pods default/p grace=0 uid=uid-p',
      ],
    },
    {
      name: 'a running pod on an out-of-service node',
      objects: [
        newNode('n1', {
          ready: false,
          taints: [{ key: OUT_OF_SERVICE_TAINT, effect: 'NoExecute' }],
        }),
        gcPod('p', { node: 'n1' }),
      ],
      want: [],
    },
    {
      name: 'a pod already force-deleted, held by finalizers',
      objects: [gcPod('p', { node: 'gone', deleting: true, grace: 0, finalizers: ['x'] })],
      want: [],
    },
  ]

  it.each(cases)('handles $name', async ({ objects, want }) => {
    const gc = podGcController({ quarantineMs: 0 })
    expect(gc.reconcile('default/p', storeOf(...objects), t0).actions.map(describeAction)).toEqual(
      want,
    )
  })
})

describe('pod GC keys', () => {
  const store = () =>
    storeOf(
      newNode('n1'),
      gcPod('running', { node: 'n1' }),
      gcPod('done', { node: 'n1', phase: 'Succeeded' }),
      gcPod('orphan', { node: 'gone' }),
      gcPod('stuck', { deleting: true }),
      gcPod('forced', { node: 'gone', deleting: true, grace: 0, finalizers: ['x'] }),
    )

  it('maps pod changes to the sweep and to pods that need a look', async () => {
    const gc = podGcController()
    const s = store()
    expect(gc.watches.keysFor(res.pods, s.get(res.pods, 'default', 'running')!, s)).toEqual([])
    expect(gc.watches.keysFor(res.pods, s.get(res.pods, 'default', 'done')!, s)).toEqual([
      TERMINATED_KEY,
    ])
    expect(gc.watches.keysFor(res.pods, s.get(res.pods, 'default', 'orphan')!, s)).toEqual([
      'default/orphan',
    ])
    expect(gc.watches.keysFor(res.pods, s.get(res.pods, 'default', 'stuck')!, s)).toEqual([
      'default/stuck',
    ])
    expect(gc.watches.keysFor(res.pods, s.get(res.pods, 'default', 'forced')!, s)).toEqual([])
    expect(
      podGcController({ terminatedThreshold: 0 }).watches.keysFor(
        res.pods,
        s.get(res.pods, 'default', 'done')!,
        s,
      ),
    ).toEqual([])
  })

  it('maps a node that went away to every pod bound to it', async () => {
    const gc = podGcController()
    const s = store()
    // A node there (or back) concerns only the quarantine sweep, which lets go of its clock.
    expect(gc.watches.keysFor(res.nodes, s.get(res.nodes, undefined, 'n1')!, s)).toEqual([
      QUARANTINE_KEY,
    ])
    const n1 = s.get(res.nodes, undefined, 'n1')!
    s.remove(res.nodes, undefined, 'n1')
    expect(gc.watches.keysFor(res.nodes, n1, s)).toEqual(['default/running', 'default/done'])
  })

  it('resyncs the sweep and every pod that needs a look', async () => {
    expect(podGcController().watches.allKeys(store())).toEqual([
      TERMINATED_KEY,
      QUARANTINE_KEY,
      'default/orphan',
      'default/stuck',
    ])
    expect(podGcController().watches.kinds.map((r) => r.plural)).toEqual(['pods', 'nodes'])
  })
})
