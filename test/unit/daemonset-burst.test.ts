import { describe, expect, it } from 'vitest'
import { daemonSetController } from '../../src/controllers/daemonset'
import { daemonSets, nodes, pods } from '../../src/controllers/resources'
import { MemoryCache, runPass, settle, T0 } from '../fixtures/memory-cache'
import { newNode } from '../fixtures/objects'

function newDaemonSet(nodeSelector?: Record<string, string>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'uid-agent', generation: 1, resourceVersion: '1' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main', image: 'agent:1' }], ...(nodeSelector ? { nodeSelector } : {}) } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    },
    status: {},
  }
}

const live = (cache: MemoryCache) => cache.list(pods, 'default').filter((p) => !p.metadata.deletionTimestamp).length

describe('daemonset burst: at most 100 pod creates or deletes per pass', () => {
  it('creates pods for 250 new nodes 100 a pass, asking to be taken again at once, until every node has one', async () => {
    const cache = new MemoryCache()
    for (let i = 0; i < 250; i++) cache.write(nodes, newNode(`n${String(i).padStart(3, '0')}`))
    cache.write(daemonSets, newDaemonSet())

    const first = await runPass(daemonSetController(), cache, T0)
    expect(live(cache)).toBe(100)
    expect(first.requeueAfterMs).toBe(0)

    const perPass: number[] = [100]
    let before = 100
    await settle(cache, [daemonSetController()], T0 + 1000, {
      kubelet: false,
      onStep: () => {
        perPass.push(live(cache) - before)
        before = live(cache)
      },
    })
    expect(live(cache)).toBe(250)
    expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
    expect(Math.max(...perPass)).toBeLessThanOrEqual(100)
  })

  it('deletes the pods of 250 nodes it may no longer run on 100 a pass', async () => {
    const cache = new MemoryCache()
    for (let i = 0; i < 250; i++) cache.write(nodes, newNode(`n${String(i).padStart(3, '0')}`, { labels: { pool: 'a' } }))
    cache.write(daemonSets, newDaemonSet())
    await settle(cache, [daemonSetController()], T0, { kubelet: false })
    expect(live(cache)).toBe(250)

    cache.write(daemonSets, { ...newDaemonSet({ pool: 'b' }), metadata: { ...newDaemonSet().metadata, generation: 2 } })
    const first = await runPass(daemonSetController(), cache, T0 + 60_000)
    expect(live(cache)).toBe(150)
    expect(first.requeueAfterMs).toBe(0)
    await settle(cache, [daemonSetController()], T0 + 61_000, { kubelet: false })
    expect(live(cache)).toBe(0)
  })
})
