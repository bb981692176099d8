import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { describeAction, newObject, ownerRef, res } from '../../../helpers'
import { namespaceController, namespacedResources } from '../../../../src/controllers/namespace'
import type { Action } from '../../../../src/controllers/runtime/types'
import { afterEmptying, type ContentCount } from '../../../../src/controllers/namespace/reconcile'

const controller = namespaceController(namespacedResources())
const deletedAt = '2025-06-01T12:00:00Z'
const now = Date.parse(deletedAt)

function namespace(
  name: string,
  f: { deleting?: boolean; specFinalizers?: string[]; finalizers?: string[]; phase?: string } = {},
): KubeObject {
  const ns = newObject(res.namespaces, name, {
    spec: { finalizers: f.specFinalizers ?? ['kubernetes'] },
    status: { phase: f.phase ?? (f.deleting ? 'Terminating' : 'Active') },
    finalizers: f.finalizers,
  })
  if (f.deleting) ns.metadata.deletionTimestamp = deletedAt
  return ns
}

const conditions = (store: MemoryCache, name: string) =>
  (
    (
      store.get(res.namespaces, undefined, name)!.status as {
        conditions?: Record<string, string>[]
      }
    ).conditions ?? []
  ).map((c) => [c.type, c.status, c.reason, c.message])

const held = (n: number, finalizers: Record<string, number> = {}): ContentCount[] => [
  { resource: 'pods.', count: n, finalizers },
]

async function applyAfterEmptying(
  store: MemoryCache,
  name: string,
  remaining: ContentCount[],
  at: number,
): Promise<Action[]> {
  const actions = afterEmptying(store.get(res.namespaces, undefined, name)!, remaining, at)
  await store.applyAll(actions)
  return actions
}

describe('namespace controller', () => {
  it('asks the stores to empty a terminating namespace of every namespaced kind, and looks again later', async () => {
    const store = MemoryCache.from([
      [res.namespaces, namespace('doomed', { deleting: true })],
      [res.namespaces, namespace('kept')],
    ])
    const out = controller.reconcile('doomed', store, now)
    expect(out.actions).toHaveLength(1)
    const action = out.actions[0] as Extract<Action, { type: 'emptyNamespace' }>
    expect(action.type).toBe('emptyNamespace')
    expect(action.name).toBe('doomed')
    expect(action.resources.map((r) => r.plural)).toEqual(
      expect.arrayContaining(['pods', 'configmaps', 'events', 'leases', 'deployments']),
    )
    expect(action.resources.map((r) => r.plural)).not.toContain('nodes')
    expect(out.requeueAfterMs).toBe(1000)
    expect(controller.reconcile('kept', store, now)).toEqual({ actions: [] })
  })

  it('reports what remains and the finalizers holding it, then finalizes once nothing is left', async () => {
    const store = MemoryCache.from([
      [res.namespaces, namespace('doomed', { deleting: true })],
      [res.namespaces, namespace('kept')],
    ])
    expect(
      (
        await applyAfterEmptying(store, 'doomed', held(2, { 'example.com/hold': 1 }), now + 4000)
      ).map(describeAction),
    ).toEqual(['updateStatus namespaces doomed rv=1'])
    expect(conditions(store, 'doomed')).toEqual([
      [
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
      ],
      [
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
      ],
      [
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
      ],
      [
        'NamespaceContentRemaining',
        'True',
        'SomeResourcesRemain',
        'Some resources are remaining: pods. has 2 resource instances',
      ],
      [
        'NamespaceFinalizersRemaining',
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      ],
    ])
    // nothing new: no write
    expect(
      await applyAfterEmptying(store, 'doomed', held(2, { 'example.com/hold': 1 }), now + 5000),
    ).toEqual([])

    expect((await applyAfterEmptying(store, 'doomed', [], now + 6000)).map(describeAction)).toEqual(
      ['finalize namespaces doomed'],
    )
    expect(store.names(res.namespaces)).toEqual(['kept'])
  })

  it('updates a condition in place, keeping its transition time while its status holds', async () => {
    const store = MemoryCache.from([[res.namespaces, namespace('doomed', { deleting: true })]])
    await applyAfterEmptying(store, 'doomed', held(2, { x: 2 }), now)
    const before = (
      store.get(res.namespaces, undefined, 'doomed')!.status as {
        conditions: Record<string, string>[]
      }
    ).conditions.find((c) => c.type === 'NamespaceContentRemaining')!
    expect(before.lastTransitionTime).toBe('2025-06-01T12:00:00Z')
    await applyAfterEmptying(store, 'doomed', held(1, { x: 1 }), now + 60_000)
    const after = (
      store.get(res.namespaces, undefined, 'doomed')!.status as {
        conditions: Record<string, string>[]
      }
    ).conditions.find((c) => c.type === 'NamespaceContentRemaining')!
    expect(after).toEqual({
      ...before,
      message: 'Some resources are remaining: pods. has 1 resource instances',
    })
  })

  it('marks the namespace Terminating while content remains', async () => {
    const store = MemoryCache.from([
      [res.namespaces, namespace('doomed', { deleting: true, phase: 'Active' })],
    ])
    await applyAfterEmptying(
      store,
      'doomed',
      [{ resource: 'secrets.', count: 1, finalizers: {} }],
      now,
    )
    expect(
      (store.get(res.namespaces, undefined, 'doomed')!.status as { phase: string }).phase,
    ).toBe('Terminating')
  })

  it('keeps other spec finalizers when finalizing', async () => {
    const store = MemoryCache.from([
      [
        res.namespaces,
        namespace('doomed', {
          deleting: true,
          specFinalizers: ['example.com/cleanup', 'kubernetes'],
        }),
      ],
    ])
    expect((await applyAfterEmptying(store, 'doomed', [], now)).map(describeAction)).toEqual([
      'update namespaces doomed rv=1',
    ])
    expect(store.get(res.namespaces, undefined, 'doomed')!.spec).toEqual({
      finalizers: ['example.com/cleanup'],
    })
    expect(controller.reconcile('doomed', store, now)).toEqual({ actions: [] })
  })

  it.each([
    ['an active namespace', namespace('ns')],
    [
      'an already finalized namespace',
      namespace('ns', { deleting: true, specFinalizers: [], finalizers: ['example.com/meta'] }),
    ],
  ])('leaves %s alone', (_, ns) => {
    const store = MemoryCache.from([
      [res.namespaces, ns],
      [res.pods, newObject(res.pods, 'p', { namespace: 'ns' })],
    ])
    expect(controller.reconcile('ns', store, now)).toEqual({ actions: [] })
    expect(controller.reconcile('missing', store, now)).toEqual({ actions: [] })
  })

  it.each([
    [0, 1000],
    [20_000, 10_000],
    [3_600_000, 300_000],
  ])('rechecks %i ms into termination after %i ms', (elapsed, delay) => {
    const store = MemoryCache.from([
      [res.namespaces, namespace('doomed', { deleting: true })],
      [
        res.pods,
        newObject(res.pods, 'p', {
          namespace: 'doomed',
          deletionTimestamp: deletedAt,
          finalizers: ['x'],
        }),
      ],
    ])
    expect(controller.reconcile('doomed', store, now + elapsed).requeueAfterMs).toBe(delay)
  })
})

describe('namespace controller keys', () => {
  const store = MemoryCache.from([
    [res.namespaces, namespace('doomed', { deleting: true })],
    [res.namespaces, namespace('active')],
    [res.namespaces, namespace('finalized', { deleting: true, specFinalizers: [] })],
  ])

  it('watches namespaces only: content is emptied and counted in the stores, never cached', async () => {
    expect(controller.watches.kinds).toEqual([res.namespaces])
  })

  it.each([
    ['a terminating namespace', res.namespaces, namespace('doomed'), ['doomed']],
    ['an active namespace', res.namespaces, namespace('active'), []],
    ['a finalized namespace', res.namespaces, namespace('finalized'), []],
  ] as const)('maps %s', (_, r, o, keys) => {
    expect(controller.watches.keysFor(r, o, store)).toEqual(keys)
  })

  it('resyncs terminating namespaces only', async () => {
    expect(controller.watches.allKeys(store)).toEqual(['doomed'])
  })
})
