import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../src/apimachinery/types'
import { persistentVolumeClaims, pods, statefulSets } from '../../src/controllers/resources'
import { statefulSetController } from '../../src/controllers/statefulset'
import { MemoryCache, runPass, settle, T0 } from '../fixtures/memory-cache'

function newParallelSet(replicas: number, volumeClaimTemplates: unknown[] = []): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default', uid: 'uid-db', generation: 1, resourceVersion: '1' },
    spec: {
      replicas,
      serviceName: 'db',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
      volumeClaimTemplates,
    },
    status: {},
  }
}

const names = (cache: MemoryCache) => cache.list(pods, 'default').map((p) => p.metadata.name ?? '')
const live = (cache: MemoryCache) => cache.list(pods, 'default').filter((p) => !p.metadata.deletionTimestamp).length

describe('parallel statefulset burst: at most 100 writes per pass', () => {
  it('creates a scale of 250 100 a pass, asking to be taken again at once, lowest ordinals first', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newParallelSet(250))

    const first = await runPass(statefulSetController(), cache, T0)
    expect(names(cache).length).toBe(100)
    expect(new Set(names(cache))).toEqual(new Set(Array.from({ length: 100 }, (_, i) => `db-${i}`)))
    expect(first.requeueAfterMs).toBe(0)

    const perPass: number[] = [100]
    let before = 100
    await settle(cache, [statefulSetController()], T0 + 1000, {
      kubelet: false,
      onStep: () => {
        perPass.push(names(cache).length - before)
        before = names(cache).length
      },
    })
    expect(names(cache).length).toBe(250)
    expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
  })

  it('counts each pod’s new claims against the 100', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newParallelSet(250, [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }]))

    const first = await runPass(statefulSetController(), cache, T0)
    expect(names(cache).length).toBe(50)
    expect(cache.list(persistentVolumeClaims, 'default').length).toBe(50)
    expect(first.requeueAfterMs).toBe(0)
    await settle(cache, [statefulSetController()], T0 + 1000, { kubelet: false })
    expect(names(cache).length).toBe(250)
    expect(cache.list(persistentVolumeClaims, 'default').length).toBe(250)
  })

  it('deletes 250 condemned pods of a scale-down 100 a pass', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newParallelSet(250))
    await settle(cache, [statefulSetController()], T0, { kubelet: false })
    const set = structuredClone(cache.get(statefulSets, 'default', 'db')!)
    ;(set.spec as { replicas: number }).replicas = 0
    set.metadata.generation = 2
    cache.write(statefulSets, set)

    const first = await runPass(statefulSetController(), cache, T0 + 60_000)
    expect(live(cache)).toBe(150)
    expect(first.requeueAfterMs).toBe(0)
    await settle(cache, [statefulSetController()], T0 + 61_000)
    expect(names(cache)).toEqual([])
  })
})
