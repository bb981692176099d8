import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { nodeLifecycleController as declaredNodeLifecycleController } from '../../../../src/controllers/node-lifecycle'
import { zoneState } from '../../../../src/controllers/node-lifecycle/eviction-rate'
import { DEFAULT_EVICTION_RATES, evictionRatesFrom } from '../../../../src/settings/eviction-rates'
import type { Taint } from '../../../../src/controllers/node-lifecycle/taints'
import { nodes, pods } from '../../../../src/controllers/resources'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newLease, newNode, newPod } from '../../../helpers'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const nodeLifecycleController = (...args: Parameters<typeof declaredNodeLifecycleController>) =>
  withProjections(declaredNodeLifecycleController(...args))

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const T = Date.parse('2025-06-01T12:00:00Z')
const controller = nodeLifecycleController({ gracePeriodMs: 40_000 })

/** `total` nodes whose kubelets keep renewing their leases (for the test's whole span), but for those named in `lost`, silent since a minute ago. */
function cluster(
  total: number,
  lost: string[],
  zoneOf: (name: string) => string | undefined = () => undefined,
  ...extra: KubeObject[]
) {
  const objects: KubeObject[] = []
  for (let i = 0; i < total; i++) {
    const name = `n${i}`
    const zone = zoneOf(name)
    const heartbeat = iso(T - 60_000)
    objects.push(
      newNode(name, { heartbeat, labels: zone ? { 'topology.kubernetes.io/zone': zone } : {} }),
    )
    objects.push(newLease(name, lost.includes(name) ? heartbeat : iso(T + 3_600_000)))
  }
  return new MemoryCache(...objects, ...extra)
}

const noExecute = (cache: MemoryCache, name: string) =>
  ((cache.get(nodes, undefined, name)!.spec as { taints?: Taint[] }).taints ?? [])
    .filter((t) => t.effect === 'NoExecute')
    .map((t) => t.key)
const noSchedule = (cache: MemoryCache, name: string) =>
  ((cache.get(nodes, undefined, name)!.spec as { taints?: Taint[] }).taints ?? [])
    .filter((t) => t.effect === 'NoSchedule')
    .map((t) => t.key)

/** One pass over `names` at `now`, the actions applied as the store would; the requeue asked per node. */
async function pass(
  cache: MemoryCache,
  names: string[],
  now: number,
  c = controller,
): Promise<Record<string, number | undefined>> {
  const outcomes = names.map((n) => [n, c.reconcile(n, cache, now)] as const)
  for (const [, out] of outcomes) await cache.applyAll(out.actions)
  return Object.fromEntries(outcomes.map(([n, out]) => [n, out.requeueAfterMs]))
}

describe('node eviction rate limit', () => {
  it('taints one lost node of a healthy zone NoExecute at once and the next 1/rate (10 s) later, longest lost first', async () => {
    const cache = cluster(
      10,
      ['n1', 'n2'],
      undefined,
      newPod('p1', { nodeName: 'n1' }),
      newPod('p2', { nodeName: 'n2' }),
    )
    const requeue = await pass(cache, ['n2', 'n1'], T)
    expect(noExecute(cache, 'n1')).toEqual(['node.kubernetes.io/unreachable'])
    expect(noExecute(cache, 'n2')).toEqual([])
    // NoSchedule is not rate limited: nothing new lands on either node.
    expect(noSchedule(cache, 'n2')).toEqual(['node.kubernetes.io/unreachable'])
    expect(requeue.n2).toBe(10_000)

    // n1's pods go with its taint; n2's stay.
    await pass(cache, ['n1', 'n2'], T + 100)
    expect(
      cache
        .list(pods)
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name),
    ).toEqual(['p2'])

    expect((await pass(cache, ['n2'], T + 5000)).n2).toBe(5000)
    expect(noExecute(cache, 'n2')).toEqual([])
    await pass(cache, ['n2'], T + 10_000)
    expect(noExecute(cache, 'n2')).toEqual(['node.kubernetes.io/unreachable'])
    await pass(cache, ['n2'], T + 10_100)
    expect(cache.list(pods).filter((p) => !p.metadata.deletionTimestamp)).toEqual([])
  })

  it('follows EDGEPLANE_NODE_EVICTION_RATE', async () => {
    const fast = nodeLifecycleController({
      gracePeriodMs: 40_000,
      evictionRates: evictionRatesFrom({ EDGEPLANE_NODE_EVICTION_RATE: '1' }),
    })
    const cache = cluster(10, ['n1', 'n2', 'n3'])
    await pass(cache, ['n1', 'n2', 'n3'], T, fast)
    expect(['n1', 'n2', 'n3'].map((n) => noExecute(cache, n).length)).toEqual([1, 0, 0])
    await pass(cache, ['n1', 'n2', 'n3'], T + 1000, fast)
    expect(['n1', 'n2', 'n3'].map((n) => noExecute(cache, n).length)).toEqual([1, 1, 0])
    await pass(cache, ['n1', 'n2', 'n3'], T + 2000, fast)
    expect(['n1', 'n2', 'n3'].map((n) => noExecute(cache, n).length)).toEqual([1, 1, 1])
  })

  it('limits each zone on its own', async () => {
    const cache = cluster(6, ['n0', 'n2'], (n) =>
      Number(n.slice(1)) % 2 === 0 ? 'zone-a' : 'zone-b',
    )
    await pass(cache, ['n0', 'n2'], T)
    expect([noExecute(cache, 'n0').length, noExecute(cache, 'n2').length]).toEqual([1, 0])
    const split = cluster(6, ['n0', 'n1'], (n) =>
      Number(n.slice(1)) % 2 === 0 ? 'zone-a' : 'zone-b',
    )
    await pass(split, ['n0', 'n1'], T)
    expect([noExecute(split, 'n0').length, noExecute(split, 'n1').length]).toEqual([1, 1])
  })

  it('stops tainting a small zone that is mostly lost, and slows to the secondary rate in a large one', async () => {
    const small = cluster(
      10,
      ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'],
      undefined,
      newPod('p', { nodeName: 'n0' }),
    )
    const requeue = await pass(small, ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'], T)
    expect(['n0', 'n1', 'n2', 'n3', 'n4', 'n5'].map((n) => noExecute(small, n).length)).toEqual([
      0, 0, 0, 0, 0, 0,
    ])
    expect(requeue.n0).toBe(10_000)
    await pass(small, ['n0'], T + 60_000)
    expect(small.list(pods).length).toBe(1)

    const lost = Array.from({ length: 40 }, (_, i) => `n${i}`)
    const large = cluster(60, lost)
    expect((await pass(large, lost, T)).n1).toBe(100_000)
    expect(lost.filter((n) => noExecute(large, n).length).length).toBe(1)
    await pass(large, lost, T + 99_000)
    expect(lost.filter((n) => noExecute(large, n).length).length).toBe(1)
    await pass(large, lost, T + 100_000)
    expect(lost.filter((n) => noExecute(large, n).length).length).toBe(2)
  })

  it('taints no node NoExecute, and lifts those taints, while every node is not ready', async () => {
    const cache = cluster(2, ['n0', 'n1'], undefined, newPod('p', { nodeName: 'n0' }))
    const tainted = cache.get(nodes, undefined, 'n1')!
    cache.add({
      ...tainted,
      spec: {
        taints: [
          {
            key: 'node.kubernetes.io/unreachable',
            effect: 'NoExecute',
            timeAdded: iso(T - 30_000),
          },
        ],
      },
    })
    await pass(cache, ['n0', 'n1'], T)
    expect([noExecute(cache, 'n0'), noExecute(cache, 'n1')]).toEqual([[], []])
    expect(noSchedule(cache, 'n0')).toEqual(['node.kubernetes.io/unreachable'])
    await pass(cache, ['n0', 'n1'], T + 60_000)
    expect(cache.list(pods).length).toBe(1)
  })

  it('computes zone states and reads its settings as upstream', async () => {
    expect(zoneState(['False', 'Unknown'], 0.55)).toBe('FullDisruption')
    expect(zoneState(['True', 'False', 'False'], 0.55)).toBe('Normal')
    expect(zoneState(['True', 'False', 'False', 'Unknown'], 0.55)).toBe('PartialDisruption')
    expect(
      zoneState(['True', 'True', 'False', 'False', 'Unknown', undefined, 'True', 'True'], 0.55),
    ).toBe('Normal')
    expect(evictionRatesFrom({})).toEqual(DEFAULT_EVICTION_RATES)
    expect(
      evictionRatesFrom({
        EDGEPLANE_NODE_EVICTION_RATE: '0',
        EDGEPLANE_SECONDARY_NODE_EVICTION_RATE: 'x',
        EDGEPLANE_UNHEALTHY_ZONE_THRESHOLD: '1.5',
        EDGEPLANE_LARGE_CLUSTER_SIZE_THRESHOLD: '10',
      }),
    ).toEqual({
      evictionRate: 0,
      secondaryEvictionRate: 0.01,
      unhealthyZoneThreshold: 0.55,
      largeClusterSizeThreshold: 10,
    })
  })
})
