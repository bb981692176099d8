import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  garbageCollectedResources,
  garbageCollector,
  objectKey,
  parseKey,
} from '../../../../src/controllers/garbage-collector'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newObject, ownerRef, res } from '../../../helpers'

const deleting = { deletionTimestamp: '2025-06-01T11:59:00Z' }

describe('garbage collector keys', () => {
  it.each([
    [res.pods, 'default', 'p1', 'core/pods/default/p1'],
    [res.replicasets, 'team-a', 'web-5d8f', 'apps/replicasets/team-a/web-5d8f'],
    [res.endpointslices, 'default', 'svc-abc', 'discovery.k8s.io/endpointslices/default/svc-abc'],
    [res.nodes, undefined, 'n1', 'core/nodes//n1'],
  ])('%s %s/%s ↔ %s', (r, namespace, name, key) => {
    expect(objectKey(r, namespace, name)).toBe(key)
    expect(parseKey(key)).toEqual({ group: r.group, plural: r.plural, namespace, name })
  })

  it.each(['', 'p1', 'default/p1', 'core/pods/default', 'a/b/c/d/e', 'core/pods/default/'])(
    'rejects %j',
    async (key) => {
      expect(parseKey(key)).toBeUndefined()
    },
  )

  it('watches the resources it is given, in that order', async () => {
    expect(garbageCollector(garbageCollectedResources).watches.kinds.map((r) => r.plural)).toEqual([
      'pods',
      'endpointslices',
      'endpoints',
      'controllerrevisions',
      'configmaps',
      'secrets',
      'replicasets',
      'replicationcontrollers',
      'jobs',
      'services',
      'statefulsets',
      'daemonsets',
      'deployments',
      'cronjobs',
    ])
    expect(() =>
      garbageCollector([{ group: 'example.com', version: 'v1', plural: 'widgets' }]),
    ).toThrow(/unknown resource/)
  })
})

describe('garbage collector keysFor and allKeys', () => {
  const d = newObject(res.deployments, 'web')
  const rs = newObject(res.replicasets, 'web-5d8f', { owners: [ownerRef(d)] })
  const p1 = newObject(res.pods, 'p1', { owners: [ownerRef(rs)] })
  const p2 = newObject(res.pods, 'p2', { owners: [ownerRef(rs)] })
  const plain = newObject(res.configmaps, 'plain')

  function cluster(...extra: [typeof res.pods, KubeObject][]) {
    const gc = garbageCollector(garbageCollectedResources)
    const store = MemoryCache.from([
      [res.deployments, d],
      [res.replicasets, rs],
      [res.pods, p1],
      [res.pods, p2],
      [res.configmaps, plain],
      ...extra,
    ])
    return { gc, store }
  }

  it('queues a dependent on its own change, and nothing for objects without owners', async () => {
    const { gc, store } = cluster()
    expect(gc.watches.keysFor(res.pods, p1, store)).toEqual(['core/pods/default/p1'])
    expect(gc.watches.keysFor(res.configmaps, plain, store)).toEqual([])
    expect(gc.watches.keysFor(res.deployments, d, store)).toEqual([])
    expect(gc.watches.keysFor(res.events, newObject(res.events, 'e'), store)).toEqual([])
  })

  it('queues the dependents of an owner that went away (learnt from earlier changes)', async () => {
    const { gc, store } = cluster()
    for (const p of [p1, p2]) gc.watches.keysFor(res.pods, p, store)
    await store.applyAll([
      { type: 'delete', resource: res.replicasets, namespace: 'default', name: 'web-5d8f' },
    ])
    expect(gc.watches.keysFor(res.replicasets, rs, store).sort()).toEqual([
      'core/pods/default/p1',
      'core/pods/default/p2',
    ])
  })

  it('queues the dependents of an owner replaced by a namesake', async () => {
    const { gc, store } = cluster()
    gc.watches.allKeys(store)
    store.put(res.replicasets, { ...rs, metadata: { ...rs.metadata, uid: 'uid-new' } })
    expect(gc.watches.keysFor(res.replicasets, rs, store).sort()).toEqual([
      'apps/replicasets/default/web-5d8f',
      'core/pods/default/p1',
      'core/pods/default/p2',
    ])
  })

  it('queues the owner that waits on a dependent in foreground deletion', async () => {
    const { gc, store } = cluster()
    gc.watches.allKeys(store)
    const waiting = {
      ...rs,
      metadata: { ...rs.metadata, ...deleting, finalizers: ['foregroundDeletion'] },
    }
    store.put(res.replicasets, waiting)
    // the owner itself: its key, and its dependents'
    expect(gc.watches.keysFor(res.replicasets, waiting, store).sort()).toEqual([
      'apps/replicasets/default/web-5d8f',
      'core/pods/default/p1',
      'core/pods/default/p2',
    ])
    // a dependent going away wakes the waiting owner
    await store.applyAll([{ type: 'delete', resource: res.pods, namespace: 'default', name: 'p1' }])
    expect(gc.watches.keysFor(res.pods, p1, store)).toEqual(['apps/replicasets/default/web-5d8f'])
  })

  it('queues an owner being deleted with the orphan policy', async () => {
    const { gc, store } = cluster()
    const orphaning = { ...d, metadata: { ...d.metadata, ...deleting, finalizers: ['orphan'] } }
    store.put(res.deployments, orphaning)
    expect(gc.watches.keysFor(res.deployments, orphaning, store)).toContain(
      'apps/deployments/default/web',
    )
  })

  it('resyncs every dependent and every owner with a policy finalizer', async () => {
    const orphaning = newObject(res.secrets, 's', { ...deleting, finalizers: ['orphan'] })
    const { gc, store } = cluster([res.secrets, orphaning])
    expect(gc.watches.allKeys(store).sort()).toEqual([
      'apps/replicasets/default/web-5d8f',
      'core/pods/default/p1',
      'core/pods/default/p2',
      'core/secrets/default/s',
    ])
  })
})
