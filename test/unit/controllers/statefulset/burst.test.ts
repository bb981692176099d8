import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { persistentVolumeClaims, pods, statefulSets } from '../../../../src/controllers/resources'
import { statefulSetController } from '../../../../src/controllers/statefulset'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import { changePerPass } from '../../../fixtures/burst'

function newParallelSet(replicas: number, volumeClaimTemplates: unknown[] = []): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'db',
      namespace: 'default',
      uid: 'uid-db',
      generation: 1,
      resourceVersion: '1',
    },
    spec: {
      replicas,
      serviceName: 'db',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
      },
      volumeClaimTemplates,
    },
    status: {},
  }
}

const names = (cache: MemoryCache) => cache.list(pods, 'default').map((p) => p.metadata.name ?? '')
const live = (cache: MemoryCache) => () =>
  cache.list(pods, 'default').filter((p) => !p.metadata.deletionTimestamp).length

describe('parallel statefulset burst: at most 100 writes per pass', () => {
  it('creates a scale of 250 100 a pass, lowest ordinals first, asking to be taken again at once', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newParallelSet(250))
    // the pods after the first pass: the count is read before it, then after each pass
    let firstNames: string[] = []
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      statefulSetController,
      T0,
      () => {
        if (!firstNames.length) firstNames = names(cache)
        return live(cache)()
      },
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
    expect(new Set(firstNames)).toEqual(new Set(Array.from({ length: 100 }, (_, i) => `db-${i}`)))
    expect(new Set(names(cache)).size).toBe(250)
  })

  it('counts each pod’s new claims against the 100', async () => {
    const cache = new MemoryCache()
    cache.write(
      statefulSets,
      newParallelSet(250, [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ]),
    )
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      statefulSetController,
      T0,
      live(cache),
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 5)).toEqual([50, 50, 50, 50, 50])
    expect(live(cache)()).toBe(250)
    expect(cache.list(persistentVolumeClaims, 'default').length).toBe(250)
  })

  it('deletes the 250 condemned pods of a scale-down to 0 100 a pass', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newParallelSet(250))
    await changePerPass(cache, statefulSetController, T0, live(cache))
    const set = structuredClone(cache.get(statefulSets, 'default', 'db')!)
    ;(set.spec as { replicas: number }).replicas = 0
    set.metadata.generation = 2
    cache.write(statefulSets, set)
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      statefulSetController,
      T0 + 60_000,
      live(cache),
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 3)).toEqual([-100, -100, -50])
    expect(live(cache)()).toBe(0)
  })
})
