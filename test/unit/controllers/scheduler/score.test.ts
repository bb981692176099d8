import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods } from '../../../../src/controllers/resources'
import {
  emptyUsage,
  nodeUsages,
  nodeUsagesOf,
  type NodeUsage,
} from '../../../../src/controllers/scheduler/node-load'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newPod } from '../../../helpers'
import {
  leastAllocatedScore,
  scoreNodes,
  selectNode,
  spreadScores,
  type FeasibleNode,
} from '../../../../src/controllers/scheduler/score'
import type { ResourceList } from '../../../../src/controllers/scheduler/requests'
import { unschedulableMessage } from '../../../../src/controllers/scheduler/fit-error'
import type { Rejection } from '../../../../src/controllers/scheduler/rejection'

const usage = (
  nonZeroRequested: ResourceList,
  byOwner: Record<string, number> = {},
): NodeUsage => ({
  ...emptyUsage(),
  nonZeroRequested,
  byOwner: new Map(Object.entries(byOwner)),
})

describe('leastAllocatedScore', () => {
  const alloc = { cpu: 4000, memory: 4000 }
  it.each<[string, ResourceList, ResourceList, number]>([
    ['empty node, tiny pod', { cpu: 0, memory: 0 }, {}, 100],
    ['half used after placing', { cpu: 1000, memory: 1000 }, { cpu: 1000, memory: 1000 }, 50],
    ['cpu and memory are averaged', { cpu: 4000, memory: 0 }, {}, 50],
    ['over capacity scores 0 for that resource', { cpu: 5000, memory: 2000 }, {}, 25],
    ['floors like integer arithmetic', { cpu: 1, memory: 1 }, {}, 99],
  ])('%s', (_, request, used, want) => {
    expect(leastAllocatedScore(request, alloc, usage(used))).toBe(want)
  })

  it('scores 0 for a resource the node does not report', async () => {
    expect(leastAllocatedScore({ cpu: 100, memory: 100 }, { cpu: 1000 }, usage({}))).toBe(45)
  })
})

describe('spreadScores', () => {
  it.each<[number[], number[]]>([
    [
      [0, 0, 0],
      [100, 100, 100],
    ],
    [
      [1, 0, 0],
      [0, 100, 100],
    ],
    [
      [2, 1, 0],
      [0, 50, 100],
    ],
    [
      [3, 3],
      [0, 0],
    ],
    [[], []],
  ])('%j → %j', (counts, want) => {
    expect(spreadScores(counts)).toEqual(want)
  })
})

describe('selectNode', () => {
  it.each<[string, { name: string; score: number }[], string | undefined]>([
    [
      'highest score',
      [
        { name: 'a', score: 10 },
        { name: 'b', score: 20 },
      ],
      'b',
    ],
    [
      'ties go to the smallest name',
      [
        { name: 'c', score: 5 },
        { name: 'b', score: 5 },
        { name: 'd', score: 5 },
      ],
      'b',
    ],
    ['nothing to pick', [], undefined],
  ])('%s', (_, scores, want) => {
    expect(selectNode(scores)).toBe(want)
  })
})

describe('scoreNodes', () => {
  const node = (
    name: string,
    used: ResourceList,
    byOwner: Record<string, number> = {},
  ): FeasibleNode => ({
    name,
    allocatable: { cpu: 4000, memory: 4 * 2 ** 30 },
    usage: usage(used, byOwner),
  })

  it('prefers a node without a replica of the same owner over a less loaded one', async () => {
    const scores = scoreNodes(
      [node('a', {}, { rs1: 1 }), node('b', { cpu: 1000, memory: 2 ** 30 })],
      { cpu: 100, memory: 2 ** 20 },
      'rs1',
    )
    expect(selectNode(scores)).toBe('b')
  })

  it('falls back to least-allocated for pods without a controller', async () => {
    const scores = scoreNodes(
      [node('a', {}, { rs1: 1 }), node('b', { cpu: 1000, memory: 2 ** 30 })],
      { cpu: 100, memory: 2 ** 20 },
      undefined,
    )
    expect(selectNode(scores)).toBe('a')
  })
})

describe('nodeUsages', () => {
  it('sums bound, non-terminal pods per node and counts running replicas per owner', async () => {
    const usages = nodeUsages([
      newPod('a', { nodeName: 'n1', requests: { cpu: '500m', memory: '1Gi' }, owner: 'rs1' }),
      newPod('b', {
        nodeName: 'n1',
        requests: { cpu: '250m' },
        owner: 'rs1',
        deletionTimestamp: '2025-01-01T00:00:00Z',
      }),
      newPod('c', { nodeName: 'n1', requests: { cpu: '4' }, phase: 'Succeeded' }),
      newPod('d', { requests: { cpu: '4' } }),
      newPod('e', { nodeName: 'n2' }),
    ])
    const n1 = usages.get('n1')!
    expect(n1.podCount).toBe(2)
    expect(n1.requested).toEqual({ cpu: 750, memory: 2 ** 30 })
    expect(n1.nonZeroRequested).toEqual({ cpu: 750, memory: 2 ** 30 + 200 * 2 ** 20 })
    expect([...n1.byOwner]).toEqual([['rs1', 1]])
    expect(usages.get('n2')!.nonZeroRequested).toEqual({ cpu: 100, memory: 200 * 2 ** 20 })
    expect(usages.has('')).toBe(false)
  })
})

describe('nodeUsagesOf', () => {
  // Zero sums left behind by removals are the same as absent ones.
  const normalized = (usages: ReadonlyMap<string, NodeUsage>) =>
    Object.fromEntries(
      [...usages]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, u]) => {
          const nonZero = (l: ResourceList) =>
            Object.fromEntries(Object.entries(l).filter(([, v]) => v !== 0))
          return [
            name,
            {
              podCount: u.podCount,
              requested: nonZero(u.requested),
              nonZeroRequested: nonZero(u.nonZeroRequested),
              byOwner: Object.fromEntries(u.byOwner),
            },
          ]
        }),
    )

  it('stays equal to a full recomputation while the cache changes', async () => {
    const cache = new MemoryCache(
      newPod('a', { nodeName: 'n1', requests: { cpu: '500m', memory: '1Gi' }, owner: 'rs1' }),
      newPod('b', { nodeName: 'n1', requests: { cpu: '250m' }, owner: 'rs1' }),
      newPod('c', { nodeName: 'n2', requests: { cpu: '1' } }),
      newPod('pending', { requests: { cpu: '2' }, owner: 'rs1' }),
    )
    const check = () =>
      expect(normalized(nodeUsagesOf(cache))).toEqual(normalized(nodeUsages(cache.list(pods))))
    check()

    await cache.apply({
      type: 'bind',
      namespace: 'default',
      name: 'pending',
      uid: 'uid-pending',
      nodeName: 'n2',
    })
    check()
    await cache.apply({ type: 'delete', resource: pods, namespace: 'default', name: 'a' })
    check()
    const b = cache.get(pods, 'default', 'b')!
    cache.put(pods, {
      ...b,
      metadata: { ...b.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
    })
    check()
    const c = cache.get(pods, 'default', 'c')!
    cache.put(pods, { ...c, status: { phase: 'Succeeded' } })
    check()
    // a cache that updates its objects in place is followed too
    cache.add(newPod('late', { requests: { cpu: '3' } }))
    check()
    ;(cache.get(pods, 'default', 'late')!.spec as Record<string, unknown>).nodeName = 'n1'
    check()
    // the bound pod deleted above is terminating until its kubelet finishes it
    cache.remove(pods, 'default', 'a')
    cache.remove(pods, 'default', 'late')
    cache.remove(pods, 'default', 'b')
    cache.remove(pods, 'default', 'pending')
    check()
    expect(nodeUsagesOf(cache).size).toBe(0)
  })
})

describe('unschedulableMessage', () => {
  const taint = (k: string, v = ''): Rejection => ({
    reasons: [`node(s) had untolerated taint {${k}: ${v}}`],
    resolvable: false,
  })
  const short = (...r: string[]): Rejection => ({ reasons: r, resolvable: true })
  const pod = newPod('p')
  it.each<[string, Rejection[], string]>([
    ['no nodes at all', [], 'no nodes available to schedule pods'],
    [
      'counts per reason, sorted, with preemption per node',
      [taint('k', 'v'), short('Insufficient cpu'), short('Insufficient cpu')],
      '0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    ],
    [
      'only unresolvable reasons',
      [
        taint('node-role.kubernetes.io/control-plane'),
        { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false },
        { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false },
      ],
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    ],
    [
      'a node with several shortfalls counts in each',
      [short('Insufficient cpu', 'Insufficient memory')],
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ],
    [
      'sorted as strings, as Go does',
      [
        ...Array.from({ length: 10 }, () => taint('a')),
        short('Insufficient cpu'),
        short('Insufficient cpu'),
      ],
      '0/12 nodes are available: 10 node(s) had untolerated taint {a: }, 2 Insufficient cpu. preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    ],
  ])('%s', (_, rejections, want) => {
    expect(unschedulableMessage(pod, rejections)).toBe(want)
  })

  it('says so when the pod may not preempt', async () => {
    expect(
      unschedulableMessage(newPod('p', { spec: { preemptionPolicy: 'Never' } }), [
        short('Insufficient cpu'),
      ]),
    ).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    )
  })
})
