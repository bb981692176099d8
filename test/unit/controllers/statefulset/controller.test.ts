import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  fnv32,
  hashControllerRevision,
  newControllerRevision,
  syncHistory,
  templatePatch,
} from '../../../../src/controllers/history'
import {
  controllerRevisions,
  persistentVolumeClaims,
  pods,
  statefulSets,
} from '../../../../src/controllers/resources'
import {
  MemoryCache,
  markPendingPodsReady,
  runPass,
  T0,
  finishTerminatingPods,
} from '../../../fixtures/memory-cache'
import { statefulSetController } from '../../../../src/controllers/statefulset'

function newStatefulSet(
  name: string,
  replicas: number,
  image = 'nginx:1',
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      generation: 1,
      resourceVersion: '1',
    },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      ...extra,
    },
    status: {},
  }
}

const names = (cache: MemoryCache) =>
  cache
    .list(pods)
    .map((p) => p.metadata.name ?? '')
    .sort()

/** One pass of the controller, then the kubelet readies pending pods and finishes deletions. */
async function step(cache: MemoryCache, now: number, kubelet = true): Promise<number> {
  const pass = await runPass(statefulSetController(), cache, now)
  if (kubelet)
    pass.actions += markPendingPodsReady(cache, now) + (await finishTerminatingPods(cache))
  return pass.actions
}

function editSet(cache: MemoryCache, name: string, edit: (spec: any) => void): void {
  const set = structuredClone(cache.get(statefulSets, 'default', name)!)
  edit(set.spec)
  set.metadata.generation = (set.metadata.generation ?? 1) + 1
  cache.write(statefulSets, set)
}

describe('statefulset controller', () => {
  it('creates pods in ordinal order, each once the previous is ready, with identity, revision and claims', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet('db', 3))
    const seen: string[][] = []
    for (let i = 0; i < 6; i++) {
      await step(cache, T0 + i * 1000)
      seen.push(names(cache))
    }
    expect(seen.slice(0, 3)).toEqual([['db-0'], ['db-0', 'db-1'], ['db-0', 'db-1', 'db-2']])
    const pod = cache.get(pods, 'default', 'db-1')!
    const revision = cache.list(controllerRevisions)[0]!
    expect(pod.metadata.labels).toMatchObject({
      'statefulset.kubernetes.io/pod-name': 'db-1',
      'apps.kubernetes.io/pod-index': '1',
      'controller-revision-hash': revision.metadata.name,
    })
    expect((pod.spec as any).hostname).toBe('db-1')
    expect((pod.spec as any).subdomain).toBe('db')
    expect((pod.spec as any).volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } },
    ])
    const claims = cache.list(persistentVolumeClaims, 'default')
    expect(claims.map((c) => c.metadata.name).sort()).toEqual([
      'data-db-0',
      'data-db-1',
      'data-db-2',
    ])
    expect(claims[0]!.spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      volumeMode: 'Filesystem',
    })
    const status = cache.get(statefulSets, 'default', 'db')!.status as any
    expect(status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 1,
    })
    expect(status.currentRevision).toBe(revision.metadata.name)
    expect(status.updateRevision).toBe(revision.metadata.name)
    expect((revision as any).revision).toBe(1)
    expect(revision.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'StatefulSet',
      name: 'db',
      controller: true,
    })
  })

  it('scales down from the highest ordinal, one at a time', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet('db', 3))
    for (let i = 0; i < 5; i++) await step(cache, T0 + i * 1000)
    editSet(cache, 'db', (s) => (s.replicas = 1))
    const order: string[] = []
    for (let i = 0; i < 6; i++) {
      const before = new Set(names(cache))
      await runPass(statefulSetController(), cache, T0 + 10_000 + i * 1000)
      for (const p of cache.list(pods))
        if (p.metadata.deletionTimestamp && before.has(p.metadata.name!))
          order.push(p.metadata.name!)
      await finishTerminatingPods(cache)
    }
    expect(order).toEqual(['db-2', 'db-1'])
    expect(names(cache)).toEqual(['db-0'])
  })

  it('rolls out a new template from the highest ordinal down, stopping at the partition', async () => {
    const cache = new MemoryCache()
    cache.write(
      statefulSets,
      newStatefulSet('db', 3, 'nginx:1', {
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      }),
    )
    for (let i = 0; i < 5; i++) await step(cache, T0 + i * 1000)
    editSet(cache, 'db', (s) => (s.template.spec.containers[0].image = 'nginx:2'))
    for (let i = 0; i < 10; i++) await step(cache, T0 + 10_000 + i * 1000)
    const image = (n: string) => (cache.get(pods, 'default', n)!.spec as any).containers[0].image
    expect([image('db-0'), image('db-1'), image('db-2')]).toEqual(['nginx:1', 'nginx:2', 'nginx:2'])
    const status = cache.get(statefulSets, 'default', 'db')!.status as any
    expect(status.updatedReplicas).toBe(2)
    expect(status.currentRevision).not.toBe(status.updateRevision)
    expect(
      cache
        .list(controllerRevisions)
        .map((r) => (r as any).revision)
        .sort(),
    ).toEqual([1, 2])
    // Lifting the partition finishes the rollout and makes the update revision current.
    editSet(cache, 'db', (s) => (s.updateStrategy.rollingUpdate.partition = 0))
    for (let i = 0; i < 6; i++) await step(cache, T0 + 30_000 + i * 1000)
    expect(image('db-0')).toBe('nginx:2')
    const done = cache.get(statefulSets, 'default', 'db')!.status as any
    expect(done.currentRevision).toBe(done.updateRevision)
    expect(done.currentReplicas).toBe(3)
  })

  it('rolls back by renumbering the matching revision instead of creating one', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet('db', 1))
    for (let i = 0; i < 3; i++) await step(cache, T0 + i * 1000)
    editSet(cache, 'db', (s) => (s.template.spec.containers[0].image = 'nginx:2'))
    for (let i = 0; i < 4; i++) await step(cache, T0 + 10_000 + i * 1000)
    editSet(cache, 'db', (s) => (s.template.spec.containers[0].image = 'nginx:1'))
    for (let i = 0; i < 4; i++) await step(cache, T0 + 20_000 + i * 1000)
    const revisions = cache
      .list(controllerRevisions)
      .map((r) => [(r as any).data.spec.template.spec.containers[0].image, (r as any).revision])
      .sort()
    expect(revisions).toEqual([
      ['nginx:1', 3],
      ['nginx:2', 2],
    ])
  })

  it('keeps at most revisionHistoryLimit unused revisions', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet('db', 1, 'nginx:0', { revisionHistoryLimit: 1 }))
    for (let v = 1; v <= 4; v++) {
      editSet(cache, 'db', (s) => (s.template.spec.containers[0].image = `nginx:${v}`))
      for (let i = 0; i < 4; i++) await step(cache, T0 + v * 10_000 + i * 1000)
    }
    const images = cache
      .list(controllerRevisions)
      .map((r) => (r as any).data.spec.template.spec.containers[0].image)
      .sort()
    expect(images).toEqual(['nginx:3', 'nginx:4'])
  })
})

describe('controller revision hashing (history)', () => {
  it('uses FNV-1 (not FNV-1a)', async () => {
    // FNV-1 32 of "a" is 0x050c5d7e; FNV-1a would give 0xe40c292c.
    expect(fnv32(new TextEncoder().encode('a'))).toBe(0x050c5d7e)
  })

  it.each([
    {
      name: 'key order does not matter',
      a: { spec: { containers: [{ name: 'm', image: 'x' }] } },
      b: { spec: { containers: [{ image: 'x', name: 'm' }] } },
      same: true,
    },
    {
      name: 'empty metadata does not matter',
      a: { metadata: { creationTimestamp: null }, spec: { containers: [] } },
      b: { spec: { containers: [] } },
      same: true,
    },
    {
      name: 'a different image does',
      a: { spec: { containers: [{ image: 'x' }] } },
      b: { spec: { containers: [{ image: 'y' }] } },
      same: false,
    },
  ])('$name', ({ a, b, same }) => {
    const owner = { owner: newStatefulSet('db', 1), apiVersion: 'apps/v1', kind: 'StatefulSet' }
    const ra = syncHistory({
      owner,
      owned: [],
      lookup: () => undefined,
      data: templatePatch(a as any),
      collisionCount: 0,
    }).update
    const rb = syncHistory({
      owner,
      owned: [ra],
      lookup: () => undefined,
      data: templatePatch(b as any),
      collisionCount: 0,
    })
    expect(rb.actions.length === 0).toBe(same)
  })

  it('the collision count changes the hash, and a taken name bumps it', async () => {
    const data = templatePatch({ spec: { containers: [{ image: 'x' }] } })
    expect(hashControllerRevision(data, 0)).not.toBe(hashControllerRevision(data, 1))
    const owner = { owner: newStatefulSet('db', 1), apiVersion: 'apps/v1', kind: 'StatefulSet' }
    const squatter = newControllerRevision(
      owner,
      templatePatch({ spec: { containers: [{ image: 'other' }] } }),
      1,
      0,
    )
    squatter.metadata.name = newControllerRevision(owner, data, 1, 0).metadata.name
    const out = syncHistory({
      owner,
      owned: [],
      lookup: (n) => (n === squatter.metadata.name ? squatter : undefined),
      data,
      collisionCount: 0,
    })
    expect(out.collisionCount).toBe(1)
    expect(out.update.metadata.name).toBe(`db-${hashControllerRevision(data, 1)}`)
  })
})
