import { describe, expect, it } from 'vitest'
import { daemonSetController } from '../../../../src/controllers/daemonset'
import { daemonSets, nodes, pods } from '../../../../src/controllers/resources'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import { changePerPass } from '../../../fixtures/burst'
import { newNode } from '../../../helpers'

function newDaemonSet(generation: number, nodeSelector?: Record<string, string>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: 'default',
      uid: 'uid-agent',
      generation,
      resourceVersion: '1',
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'main', image: 'agent:1' }],
          ...(nodeSelector ? { nodeSelector } : {}),
        },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    },
    status: {},
  }
}

function clusterOf250(): MemoryCache {
  const cache = new MemoryCache()
  for (let i = 0; i < 250; i++)
    cache.write(nodes, newNode(`n${String(i).padStart(3, '0')}`, { labels: { pool: 'a' } }))
  cache.write(daemonSets, newDaemonSet(1))
  return cache
}

const live = (cache: MemoryCache) => () =>
  cache.list(pods, 'default').filter((p) => !p.metadata.deletionTimestamp).length

describe('daemonset burst: at most 100 pod creates or deletes per pass', () => {
  it('creates pods for 250 new nodes 100 a pass, asking to be taken again at once, until every node has one', async () => {
    const cache = clusterOf250()
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      daemonSetController,
      T0,
      live(cache),
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
    expect(live(cache)()).toBe(250)
    expect(
      new Set(
        cache
          .list(pods, 'default')
          .map((p) => JSON.stringify((p.spec as { affinity?: unknown }).affinity)),
      ).size,
    ).toBe(250)
  })

  it('deletes the pods of 250 nodes it may no longer run on 100 a pass', async () => {
    const cache = clusterOf250()
    await changePerPass(cache, daemonSetController, T0, live(cache))
    cache.write(daemonSets, newDaemonSet(2, { pool: 'b' }))
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      daemonSetController,
      T0 + 60_000,
      live(cache),
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 3)).toEqual([-100, -100, -50])
    expect(live(cache)()).toBe(0)
  })
})
