import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  garbageCollectedResources,
  garbageCollector,
  objectKey,
} from '../../../../src/controllers/garbage-collector'
import { drive, MemoryCache } from '../../../fixtures/memory-cache'
import { describeAction, newObject, ownerRef, res } from '../../../helpers'
import type { ResourceRef } from '../../../../src/controllers/runtime/types'

const gc = garbageCollector(garbageCollectedResources)
const now = Date.parse('2025-06-01T12:00:00Z')
const deleting = { deletionTimestamp: '2025-06-01T11:59:00Z' }

const deployment = (f: Parameters<typeof newObject>[2] = {}) => newObject(res.deployments, 'web', f)
const replicaSet = (owner: KubeObject | undefined, f: Parameters<typeof newObject>[2] = {}) =>
  newObject(res.replicasets, 'web-5d8f', { owners: owner ? [ownerRef(owner)] : undefined, ...f })
const dependentPod = (
  name: string,
  owners: KubeObject['metadata']['ownerReferences'],
  f: Parameters<typeof newObject>[2] = {},
) => newObject(res.pods, name, { owners, ...f })

const keyOf = (r: ResourceRef, o: KubeObject) =>
  objectKey(r, o.metadata.namespace, o.metadata.name ?? '')

describe('garbage collector: dependents of owners that are gone (background)', () => {
  const rs = replicaSet(undefined)
  const cases: {
    name: string
    objects: [ResourceRef, KubeObject][]
    key: [ResourceRef, KubeObject]
    want: string[]
  }[] = [
    {
      name: 'keeps a pod whose owner exists',
      objects: [[res.replicasets, rs]],
      key: [res.pods, dependentPod('p1', [ownerRef(rs)])],
      want: [],
    },
    {
      name: 'deletes a pod whose only owner is gone',
      objects: [],
      key: [res.pods, dependentPod('p1', [ownerRef(rs)])],
      want: ['delete pods default/p1 Background uid=uid-p1'],
    },
    {
      name: 'takes an owner of the same name but another uid for gone',
      objects: [[res.replicasets, replicaSet(undefined, { uid: 'uid-successor' })]],
      key: [res.pods, dependentPod('p1', [ownerRef(rs)])],
      want: ['delete pods default/p1 Background uid=uid-p1'],
    },
    {
      name: 'looks for a namespaced owner in the dependent’s namespace only',
      objects: [[res.replicasets, replicaSet(undefined, { namespace: 'other' })]],
      key: [res.pods, dependentPod('p1', [ownerRef(rs)])],
      want: ['delete pods default/p1 Background uid=uid-p1'],
    },
    {
      name: 'drops the reference to a gone owner while another owner stands',
      objects: [[res.configmaps, newObject(res.configmaps, 'keeper')]],
      key: [
        res.pods,
        dependentPod('p1', [
          ownerRef(rs),
          ownerRef(newObject(res.configmaps, 'keeper'), { controller: false }),
        ]),
      ],
      want: [
        `patch pods default/p1 ${JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'keeper', uid: 'uid-keeper', blockOwnerDeletion: true }], resourceVersion: '1' } })}`,
      ],
    },
    {
      name: 'never takes an owner of a kind it does not watch for gone',
      objects: [],
      key: [
        res.pods,
        dependentPod('p1', [
          { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'uid-w' },
        ]),
      ],
      want: [],
    },
    {
      name: 'resolves a cluster-scoped owner without a namespace (kind not watched: kept)',
      objects: [],
      key: [
        res.pods,
        dependentPod('mirror', [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1' }]),
      ],
      want: [],
    },
    {
      name: 'leaves an object that is already being deleted alone',
      objects: [],
      key: [
        res.pods,
        dependentPod('p1', [ownerRef(rs)], { ...deleting, finalizers: ['example.com/hold'] }),
      ],
      want: [],
    },
    {
      name: 'keeps the policy an object already records when collecting it',
      objects: [],
      key: [
        res.replicasets,
        newObject(res.replicasets, 'child', {
          owners: [ownerRef(deployment())],
          finalizers: ['orphan'],
        }),
      ],
      want: ['delete replicasets default/child Orphan uid=uid-child'],
    },
    {
      name: 'ignores objects without owners',
      objects: [],
      key: [res.configmaps, newObject(res.configmaps, 'plain')],
      want: [],
    },
  ]

  it.each(cases)('$name', async ({ objects, key: [r, o], want }) => {
    const store = MemoryCache.from([...objects, [r, o]])
    expect(gc.reconcile(keyOf(r, o), store, now).actions.map(describeAction)).toEqual(want)
  })

  it('does nothing for a key whose object is gone or whose kind is not watched', async () => {
    const store = new MemoryCache()
    expect(gc.reconcile('core/pods/default/missing', store, now)).toEqual({ actions: [] })
    expect(gc.reconcile('core/nodes//n1', store, now)).toEqual({ actions: [] })
    expect(gc.reconcile('not-a-key', store, now)).toEqual({ actions: [] })
  })

  it('keeps dependents whose owner kind is outside the watched list', async () => {
    const podsOnly = garbageCollector([res.pods])
    const store = MemoryCache.from([
      [res.pods, dependentPod('p1', [ownerRef(replicaSet(undefined))])],
    ])
    expect(podsOnly.reconcile('core/pods/default/p1', store, now).actions).toEqual([])
  })

  it('cascades a background deletion down the ownership chain', async () => {
    const d = deployment()
    const rs = replicaSet(d)
    const store = MemoryCache.from([
      [res.replicasets, rs],
      [res.pods, dependentPod('p1', [ownerRef(rs)])],
      [
        res.pods,
        dependentPod('p2', [ownerRef(rs)], {
          spec: { nodeName: 'n1' },
          status: { phase: 'Running' },
        }),
      ],
      [res.pods, dependentPod('unrelated', undefined)],
    ])
    expect(await drive(gc, store, now)).toBe(2)
    expect(store.log).toEqual([
      'delete replicasets default/web-5d8f (Background)',
      'gone replicasets default/web-5d8f',
      'delete pods default/p1 (Background)',
      'gone pods default/p1',
      'delete pods default/p2 (Background)',
    ])
    // the bound pod terminates gracefully on its node; the unrelated pod stays
    expect(store.names(res.pods)).toEqual(['p2', 'unrelated'])
    expect(store.get(res.pods, 'default', 'p2')!.metadata.deletionTimestamp).toBe(
      '2025-06-01T12:00:30Z',
    )
  })
})

describe('garbage collector: foreground deletion', () => {
  it('deletes dependents first and removes the finalizer once no blocking dependent is left', async () => {
    const d = deployment({ ...deleting, finalizers: ['foregroundDeletion'] })
    const rs = replicaSet(d)
    const store = MemoryCache.from([
      [res.deployments, d],
      [res.replicasets, rs],
      [res.pods, dependentPod('p1', [ownerRef(rs)])],
      [res.pods, dependentPod('p2', [ownerRef(rs)])],
    ])
    // the owner's own pass: the replicaset has dependents, so it goes in the foreground too
    expect(gc.reconcile(keyOf(res.deployments, d), store, now).actions.map(describeAction)).toEqual(
      ['delete replicasets default/web-5d8f Foreground uid=uid-web-5d8f'],
    )

    await drive(gc, store, now)
    expect(store.list(res.deployments)).toEqual([])
    expect(store.list(res.replicasets)).toEqual([])
    expect(store.list(res.pods)).toEqual([])
    const gone = (what: string) => store.log.indexOf(`gone ${what}`)
    expect(gone('pods default/p1')).toBeGreaterThan(-1)
    expect(gone('pods default/p1')).toBeLessThan(gone('replicasets default/web-5d8f'))
    expect(gone('pods default/p2')).toBeLessThan(gone('replicasets default/web-5d8f'))
    expect(gone('replicasets default/web-5d8f')).toBeLessThan(gone('deployments default/web'))
    expect(store.log.filter((l) => /^patch (replicasets|deployments) /.test(l))).toEqual([
      'patch replicasets default/web-5d8f',
      'patch deployments default/web',
    ])
  })

  const owner = newObject(res.jobs, 'job', { ...deleting, finalizers: ['foregroundDeletion'] })
  const cases: { name: string; dependents: [ResourceRef, KubeObject][]; want: string[] }[] = [
    {
      name: 'removes the finalizer at once without dependents',
      dependents: [],
      want: [
        `patch jobs default/job ${JSON.stringify({ metadata: { finalizers: null, resourceVersion: '1' } })}`,
      ],
    },
    {
      name: 'deletes a non-blocking dependent without waiting for it',
      dependents: [
        [
          res.configmaps,
          newObject(res.configmaps, 'cfg', { owners: [ownerRef(owner, { block: false })] }),
        ],
      ],
      want: [
        'delete configmaps default/cfg Background uid=uid-cfg',
        `patch jobs default/job ${JSON.stringify({ metadata: { finalizers: null, resourceVersion: '1' } })}`,
      ],
    },
    {
      name: 'deletes a blocking dependent and keeps waiting',
      dependents: [[res.pods, dependentPod('p1', [ownerRef(owner)])]],
      want: ['delete pods default/p1 Background uid=uid-p1'],
    },
    {
      name: 'waits for a blocking dependent that is still terminating',
      dependents: [
        [
          res.pods,
          dependentPod('p1', [ownerRef(owner)], { ...deleting, spec: { nodeName: 'n1' } }),
        ],
      ],
      want: [],
    },
    {
      name: 'releases a dependent that another owner keeps',
      dependents: [
        [res.configmaps, newObject(res.configmaps, 'keeper')],
        [
          res.pods,
          dependentPod('shared', [
            ownerRef(owner),
            ownerRef(newObject(res.configmaps, 'keeper'), { controller: false, block: false }),
          ]),
        ],
      ],
      want: [
        `patch pods default/shared ${JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'keeper', uid: 'uid-keeper' }], resourceVersion: '1' } })}`,
      ],
    },
  ]

  it.each(cases)('$name', async ({ dependents, want }) => {
    const store = MemoryCache.from([[res.jobs, owner], ...dependents])
    expect(gc.reconcile(keyOf(res.jobs, owner), store, now).actions.map(describeAction)).toEqual(
      want,
    )
  })

  it('removes only its own finalizer', async () => {
    const job = {
      ...owner,
      metadata: { ...owner.metadata, finalizers: ['example.com/hold', 'foregroundDeletion'] },
    }
    const store = MemoryCache.from([[res.jobs, job]])
    const actions = gc.reconcile(keyOf(res.jobs, job), store, now).actions
    expect(actions.map(describeAction)).toEqual([
      `patch jobs default/job ${JSON.stringify({ metadata: { finalizers: ['example.com/hold'], resourceVersion: '1' } })}`,
    ])
    await store.applyAll(actions)
    expect(store.get(res.jobs, 'default', 'job')!.metadata.finalizers).toEqual(['example.com/hold'])
  })

  it('lets the owner go once the last blocking pod has terminated', async () => {
    const p = dependentPod('p1', [ownerRef(owner)], {
      spec: { nodeName: 'n1' },
      status: { phase: 'Running' },
    })
    const store = MemoryCache.from([
      [res.jobs, owner],
      [res.pods, p],
    ])
    await drive(gc, store, now)
    expect(store.names(res.jobs)).toEqual(['job'])
    expect(store.get(res.pods, 'default', 'p1')!.metadata.deletionTimestamp).toBeDefined()
    await store.finishPod('default', 'p1')
    await drive(gc, store, now)
    expect(store.names(res.jobs)).toEqual([])
  })
})

describe('garbage collector: orphan deletion', () => {
  it('removes the owner’s reference from every dependent, then the orphan finalizer', async () => {
    const rs = replicaSet(undefined, { ...deleting, finalizers: ['orphan'] })
    const other = newObject(res.configmaps, 'other')
    const store = MemoryCache.from([
      [res.replicasets, rs],
      [res.configmaps, other],
      [res.pods, dependentPod('p1', [ownerRef(rs)])],
      [res.pods, dependentPod('p2', [ownerRef(rs), ownerRef(other, { controller: false })])],
      [res.pods, dependentPod('elsewhere', [ownerRef(rs)], { namespace: 'other' })],
    ])
    const actions = gc.reconcile(keyOf(res.replicasets, rs), store, now).actions
    expect(actions.map(describeAction)).toEqual([
      `patch pods default/p1 ${JSON.stringify({ metadata: { ownerReferences: null, resourceVersion: '1' } })}`,
      `patch pods default/p2 ${JSON.stringify({ metadata: { ownerReferences: [ownerRef(other, { controller: false })], resourceVersion: '1' } })}`,
      `patch replicasets default/web-5d8f ${JSON.stringify({ metadata: { finalizers: null, resourceVersion: '1' } })}`,
    ])
    await store.applyAll(actions)
    expect(store.list(res.replicasets)).toEqual([])
    expect(store.get(res.pods, 'default', 'p1')!.metadata.ownerReferences).toBeUndefined()
    expect(store.get(res.pods, 'default', 'p2')!.metadata.ownerReferences).toEqual([
      ownerRef(other, { controller: false }),
    ])

    // the orphans stay; only the pod in another namespace (which the owner never owned) is collected
    await drive(gc, store, now)
    expect(store.names(res.pods)).toEqual(['p1', 'p2'])
  })

  it('keeps a dependent whose owner is still orphaning it', async () => {
    const rs = replicaSet(undefined, { ...deleting, finalizers: ['orphan'] })
    const store = MemoryCache.from([
      [res.replicasets, rs],
      [res.pods, dependentPod('p1', [ownerRef(rs)])],
    ])
    // the pod's own key sees a standing owner: nothing to do until the owner has released it
    expect(gc.reconcile('core/pods/default/p1', store, now).actions).toEqual([])
  })
})
