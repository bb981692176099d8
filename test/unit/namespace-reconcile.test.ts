import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../src/apimachinery/types'
import { MemoryStore, newObject, ownerRef, res } from '../../src/controllers/garbage-collector/fixtures'
import { namespaceController, namespacedResources } from '../../src/controllers/namespace'
import type { Action } from '../../src/controllers/runtime/types'

const controller = namespaceController(namespacedResources())
const deletedAt = '2025-06-01T12:00:00Z'
const now = Date.parse(deletedAt)

function namespace(name: string, f: { deleting?: boolean; specFinalizers?: string[]; finalizers?: string[]; phase?: string } = {}): KubeObject {
  const ns = newObject(res.namespaces, name, {
    spec: { finalizers: f.specFinalizers ?? ['kubernetes'] },
    status: { phase: f.phase ?? (f.deleting ? 'Terminating' : 'Active') },
    finalizers: f.finalizers,
  })
  if (f.deleting) ns.metadata.deletionTimestamp = deletedAt
  return ns
}

function describeAction(a: Action): string {
  if (a.type === 'delete') return `delete ${a.resource.plural} ${a.namespace}/${a.name} uid=${a.preconditions?.uid}`
  if (a.type === 'update') return `update ${a.resource.plural} ${a.object.metadata.name} spec=${JSON.stringify(a.object.spec)} rv=${a.object.metadata.resourceVersion}`
  if (a.type === 'updateStatus') return `updateStatus ${a.resource.plural} ${a.object.metadata.name}`
  if (a.type === 'finalize') return `finalize ${a.name}`
  return a.type
}

const conditions = (store: MemoryStore, name: string) =>
  ((store.get(res.namespaces, undefined, name)!.status as { conditions?: Record<string, string>[] }).conditions ?? []).map((c) => [c.type, c.status, c.reason, c.message])

function terminatingCluster() {
  const d = newObject(res.deployments, 'web', { namespace: 'doomed' })
  const rs = newObject(res.replicasets, 'web-1', { namespace: 'doomed', owners: [ownerRef(d)] })
  return new MemoryStore([
    [res.namespaces, namespace('doomed', { deleting: true })],
    [res.namespaces, namespace('kept')],
    [res.replicasets, rs],
    [res.deployments, d],
    [res.configmaps, newObject(res.configmaps, 'cfg', { namespace: 'doomed' })],
    [res.pods, newObject(res.pods, 'running', { namespace: 'doomed', owners: [ownerRef(rs)], spec: { nodeName: 'n1' }, status: { phase: 'Running' } })],
    [res.pods, newObject(res.pods, 'held', { namespace: 'doomed', finalizers: ['example.com/hold'] })],
    [res.events, newObject(res.events, 'ev', { namespace: 'doomed' })],
    [res.configmaps, newObject(res.configmaps, 'cfg', { namespace: 'kept' })],
  ])
}

describe('namespace controller', () => {
  it('deletes all content of a terminating namespace, unowned objects first', () => {
    const store = terminatingCluster()
    const out = controller.reconcile('doomed', store, now)
    expect(out.actions.map(describeAction)).toEqual([
      'delete pods doomed/held uid=uid-held',
      'delete configmaps doomed/cfg uid=uid-cfg',
      'delete events doomed/ev uid=uid-ev',
      'delete deployments doomed/web uid=uid-web',
      'delete pods doomed/running uid=uid-running',
      'delete replicasets doomed/web-1 uid=uid-web-1',
    ])
    expect(out.requeueAfterMs).toBe(1000)
  })

  it('reports what remains, waits for it, then finalizes', () => {
    const store = terminatingCluster()
    store.applyAll(controller.reconcile('doomed', store, now).actions)
    // a graceful pod and a pod held by a finalizer are left
    expect(store.names(res.pods, 'doomed')).toEqual(['held', 'running'])
    expect(store.names(res.configmaps)).toEqual(['cfg'])
    expect(store.list(res.configmaps)[0]!.metadata.namespace).toBe('kept')

    const waiting = controller.reconcile('doomed', store, now + 4000)
    expect(waiting.actions.map(describeAction)).toEqual(['updateStatus namespaces doomed'])
    expect(waiting.requeueAfterMs).toBe(2000)
    store.applyAll(waiting.actions)
    expect(conditions(store, 'doomed')).toEqual([
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 2 resource instances'],
      ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances'],
    ])
    // nothing new: no write, only the recheck
    expect(controller.reconcile('doomed', store, now + 5000)).toEqual({ actions: [], requeueAfterMs: 2500 })

    store.finishPod('doomed', 'running')
    const held = store.get(res.pods, 'doomed', 'held')!
    store.applyAll([{ type: 'update', resource: res.pods, object: { ...held, metadata: { ...held.metadata, finalizers: [] } } }])
    expect(store.list(res.pods, 'doomed')).toEqual([])

    const done = controller.reconcile('doomed', store, now + 6000)
    expect(done.actions.map(describeAction)).toEqual(['purgeNamespaceCustomResources', 'finalize doomed'])
    expect(done.requeueAfterMs).toBeUndefined()
    store.applyAll(done.actions)
    expect(store.names(res.namespaces)).toEqual(['kept'])
  })

  it('updates a condition in place, keeping its transition time while its status holds', () => {
    const ns = namespace('doomed', { deleting: true })
    const store = new MemoryStore([
      [res.namespaces, ns],
      [res.pods, newObject(res.pods, 'a', { namespace: 'doomed', deletionTimestamp: deletedAt, finalizers: ['x'] })],
      [res.pods, newObject(res.pods, 'b', { namespace: 'doomed', deletionTimestamp: deletedAt, finalizers: ['x'] })],
    ])
    store.applyAll(controller.reconcile('doomed', store, now).actions)
    const before = (store.get(res.namespaces, undefined, 'doomed')!.status as { conditions: Record<string, string>[] }).conditions.find((c) => c.type === 'NamespaceContentRemaining')!
    expect(before.lastTransitionTime).toBe('2025-06-01T12:00:00Z')
    store.remove(res.pods, 'doomed', 'b')
    store.applyAll(controller.reconcile('doomed', store, now + 60_000).actions)
    const after = (store.get(res.namespaces, undefined, 'doomed')!.status as { conditions: Record<string, string>[] }).conditions.find((c) => c.type === 'NamespaceContentRemaining')!
    expect(after).toEqual({ ...before, message: 'Some resources are remaining: pods. has 1 resource instances' })
  })

  it('keeps other spec finalizers when finalizing', () => {
    const store = new MemoryStore([[res.namespaces, namespace('doomed', { deleting: true, specFinalizers: ['example.com/cleanup', 'kubernetes'] })]])
    const out = controller.reconcile('doomed', store, now)
    expect(out.actions.map(describeAction)).toEqual(['purgeNamespaceCustomResources', 'update namespaces doomed spec={"finalizers":["example.com/cleanup"]} rv=1'])
    store.applyAll(out.actions)
    expect(store.get(res.namespaces, undefined, 'doomed')!.spec).toEqual({ finalizers: ['example.com/cleanup'] })
    expect(controller.reconcile('doomed', store, now)).toEqual({ actions: [] })
  })

  it('marks the namespace Terminating if the phase was not set', () => {
    const store = new MemoryStore([
      [res.namespaces, namespace('doomed', { deleting: true, phase: 'Active' })],
      [res.secrets, newObject(res.secrets, 's', { namespace: 'doomed' })],
    ])
    const out = controller.reconcile('doomed', store, now)
    expect(out.actions.map(describeAction)).toEqual(['updateStatus namespaces doomed', 'delete secrets doomed/s uid=uid-s'])
    expect((out.actions[0] as Extract<Action, { type: 'updateStatus' }>).object.status).toEqual({ phase: 'Terminating' })
  })

  it.each([
    ['an active namespace', namespace('ns')],
    ['an already finalized namespace', namespace('ns', { deleting: true, specFinalizers: [], finalizers: ['example.com/meta'] })],
  ])('leaves %s alone', (_, ns) => {
    const store = new MemoryStore([
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
    const store = new MemoryStore([
      [res.namespaces, namespace('doomed', { deleting: true })],
      [res.pods, newObject(res.pods, 'p', { namespace: 'doomed', deletionTimestamp: deletedAt, finalizers: ['x'] })],
    ])
    expect(controller.reconcile('doomed', store, now + elapsed).requeueAfterMs).toBe(delay)
  })
})

describe('namespace controller keys', () => {
  const store = new MemoryStore([
    [res.namespaces, namespace('doomed', { deleting: true })],
    [res.namespaces, namespace('active')],
    [res.namespaces, namespace('finalized', { deleting: true, specFinalizers: [] })],
  ])

  it('watches namespaces first, then every namespaced kind', () => {
    expect(controller.watches[0]).toEqual(res.namespaces)
    expect(controller.watches.map((r) => r.plural)).toContain('leases')
    expect(controller.watches.map((r) => r.plural)).not.toContain('nodes')
  })

  it.each([
    ['a terminating namespace', res.namespaces, namespace('doomed'), ['doomed']],
    ['an active namespace', res.namespaces, namespace('active'), []],
    ['a finalized namespace', res.namespaces, namespace('finalized'), []],
    ['content of a terminating namespace', res.pods, newObject(res.pods, 'p', { namespace: 'doomed' }), ['doomed']],
    ['content of an active namespace', res.configmaps, newObject(res.configmaps, 'c', { namespace: 'active' }), []],
    ['content of an unknown namespace', res.configmaps, newObject(res.configmaps, 'c', { namespace: 'nowhere' }), []],
  ] as const)('maps %s', (_, r, o, keys) => {
    expect(controller.keysFor(r, o, store)).toEqual(keys)
  })

  it('resyncs terminating namespaces only', () => {
    expect(controller.allKeys(store)).toEqual(['doomed'])
  })
})
