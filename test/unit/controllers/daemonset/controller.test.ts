import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  daemonSetController as declaredDaemonSetController,
  nodeShouldRunDaemonPod,
  rollingUpdateDeletes,
  targetNodeName,
  podsByNode,
} from '../../../../src/controllers/daemonset'
import type { DaemonSet } from '../../../../src/controllers/daemonset/types'
import { controllerRevisions, daemonSets, nodes, pods } from '../../../../src/controllers/resources'
import { MemoryCache, finishTerminatingPods, runPass, T0 } from '../../../fixtures/memory-cache'
import { newNode, newPod } from '../../../helpers'
import { formatTime } from '../../../../src/apimachinery/meta-time'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const daemonSetController = (...args: Parameters<typeof declaredDaemonSetController>) =>
  withProjections(declaredDaemonSetController(...args))

function newDaemonSet(
  name: string,
  spec: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      generation: 1,
      resourceVersion: '1',
    },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'agent:1' }], ...spec },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      ...extra,
    },
    status: {},
  }
}

describe('daemon placement (NodeShouldRunDaemonPod)', () => {
  it.each<{
    name: string
    node: KubeObject
    spec?: Record<string, unknown>
    run: boolean
    stay: boolean
  }>([
    { name: 'a plain node runs it', node: newNode('n'), run: true, stay: true },
    {
      name: 'a not-ready node runs it (default tolerations)',
      node: newNode('n', {
        ready: false,
        taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      }),
      run: true,
      stay: true,
    },
    {
      name: 'a cordoned node runs it',
      node: newNode('n', {
        unschedulable: true,
        taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      }),
      run: true,
      stay: true,
    },
    {
      name: 'an untolerated NoSchedule taint: no new pod, the old may stay',
      node: newNode('n', { taints: [{ key: 'gpu', effect: 'NoSchedule' }] }),
      run: false,
      stay: true,
    },
    {
      name: 'an untolerated NoExecute taint: neither',
      node: newNode('n', { taints: [{ key: 'gpu', effect: 'NoExecute' }] }),
      run: false,
      stay: false,
    },
    {
      name: 'a tolerated taint',
      node: newNode('n', { taints: [{ key: 'gpu', effect: 'NoExecute' }] }),
      spec: { tolerations: [{ key: 'gpu', operator: 'Exists' }] },
      run: true,
      stay: true,
    },
    {
      name: 'a nodeSelector that matches',
      node: newNode('n', { labels: { zone: 'east' } }),
      spec: { nodeSelector: { zone: 'east' } },
      run: true,
      stay: true,
    },
    {
      name: 'a nodeSelector that does not',
      node: newNode('n', { labels: { zone: 'west' } }),
      spec: { nodeSelector: { zone: 'east' } },
      run: false,
      stay: false,
    },
    {
      name: 'required node affinity that does not match',
      node: newNode('n', { labels: { zone: 'west' } }),
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['east'] }] },
              ],
            },
          },
        },
      },
      run: false,
      stay: false,
    },
    {
      name: 'a template nodeName for another node',
      node: newNode('n'),
      spec: { nodeName: 'other' },
      run: false,
      stay: false,
    },
  ])('$name', ({ node, spec, run, stay }) => {
    expect(nodeShouldRunDaemonPod(node, newDaemonSet('ds', spec))).toEqual({
      shouldRun: run,
      shouldContinueRunning: stay,
    })
  })
})

/** A daemon pod on a node at a revision hash, available or not. */
function daemonPod(node: string, hash: string, available = true): KubeObject {
  const status = available
    ? {
        phase: 'Running',
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: formatTime(T0 - 60_000) },
        ],
      }
    : { phase: 'Pending' }
  return newPod(`ds-${node}`, {
    uid: `uid-${node}`,
    labels: { app: 'ds', 'controller-revision-hash': hash },
    nodeName: node,
    status,
  })
}

describe('daemon rolling update (maxUnavailable)', () => {
  const four = ['a', 'b', 'c', 'd'].map((n) => newNode(n))
  it.each<{ name: string; maxUnavailable: number | string; pods: KubeObject[]; deletes: string[] }>(
    [
      {
        name: 'one at a time by default',
        maxUnavailable: 1,
        pods: ['a', 'b', 'c', 'd'].map((n) => daemonPod(n, 'old')),
        deletes: ['ds-a'],
      },
      {
        name: 'two at a time',
        maxUnavailable: 2,
        pods: ['a', 'b', 'c', 'd'].map((n) => daemonPod(n, 'old')),
        deletes: ['ds-a', 'ds-b'],
      },
      {
        name: 'a percentage of desired nodes, rounded up',
        maxUnavailable: '30%',
        pods: ['a', 'b', 'c', 'd'].map((n) => daemonPod(n, 'old')),
        deletes: ['ds-a', 'ds-b'],
      },
      {
        name: 'an updated pod not yet available uses the budget',
        maxUnavailable: 1,
        pods: [
          daemonPod('a', 'new', false),
          daemonPod('b', 'old'),
          daemonPod('c', 'old'),
          daemonPod('d', 'old'),
        ],
        deletes: [],
      },
      {
        name: 'a node without a pod uses the budget',
        maxUnavailable: 1,
        pods: [daemonPod('b', 'old'), daemonPod('c', 'old'), daemonPod('d', 'old')],
        deletes: [],
      },
      {
        name: 'an unavailable old pod is always replaced',
        maxUnavailable: 1,
        pods: [daemonPod('a', 'new', false), daemonPod('b', 'old', false), daemonPod('c', 'old')],
        deletes: ['ds-b'],
      },
      {
        name: 'nothing old, nothing to do',
        maxUnavailable: 1,
        pods: ['a', 'b', 'c', 'd'].map((n) => daemonPod(n, 'new')),
        deletes: [],
      },
    ],
  )('$name', ({ maxUnavailable, pods: list, deletes }) => {
    const ds = newDaemonSet(
      'ds',
      {},
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } },
    )
    const byNode = podsByNode(list)
    expect(rollingUpdateDeletes(ds, four, byNode, 'new', T0).map((p) => p.metadata.name)).toEqual(
      deletes,
    )
  })
})

describe('daemonset controller', () => {
  const dsController = daemonSetController()

  async function pass(cache: MemoryCache, now: number, readyAll = true): Promise<void> {
    await runPass(dsController, cache, now)
    await finishTerminatingPods(cache)
    if (!readyAll) return
    for (const p of cache.list(pods)) {
      if ((p.status as any)?.phase !== 'Pending') continue
      // The scheduler binds the pod where its affinity pins it, then the kubelet readies it.
      const status = {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(now) }],
      }
      cache.write(pods, { ...p, spec: { ...(p.spec as any), nodeName: targetNodeName(p) }, status })
    }
  }

  it('runs one pod per eligible node, pinned by affinity with daemon tolerations, and follows a joining node', async () => {
    const cache = new MemoryCache()
    cache.write(nodes, newNode('a'))
    cache.write(nodes, newNode('b', { taints: [{ key: 'gpu', effect: 'NoSchedule' }] }))
    cache.write(daemonSets, newDaemonSet('ds'))
    await pass(cache, T0)
    const placed = cache.list(pods).map(targetNodeName)
    expect(placed).toEqual(['a'])
    const pod = cache.list(pods)[0]!
    expect(
      (pod.spec as any).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution,
    ).toEqual({
      nodeSelectorTerms: [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] },
      ],
    })
    expect((pod.spec as any).tolerations).toContainEqual({
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
    })
    expect((pod.spec as any).tolerations).toContainEqual({
      key: 'node.kubernetes.io/unschedulable',
      operator: 'Exists',
      effect: 'NoSchedule',
    })
    cache.write(nodes, newNode('c'))
    await pass(cache, T0 + 1000)
    await pass(cache, T0 + 2000)
    expect(cache.list(pods).map(targetNodeName).sort()).toEqual(['a', 'c'])
    const status = cache.get(daemonSets, 'default', 'ds')!.status as any
    expect(status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberMisscheduled: 0,
      observedGeneration: 1,
    })
    expect(cache.list(controllerRevisions)).toHaveLength(1)
  })

  it('replaces pods one node at a time on a template change', async () => {
    const cache = new MemoryCache()
    for (const n of ['a', 'b', 'c']) cache.write(nodes, newNode(n))
    cache.write(daemonSets, newDaemonSet('ds'))
    await pass(cache, T0)
    await pass(cache, T0 + 1000)
    const ds = structuredClone(cache.get(daemonSets, 'default', 'ds')!) as DaemonSet
    ;(ds.spec.template!.spec as any).containers[0].image = 'agent:2'
    ds.metadata.generation = 2
    cache.write(daemonSets, ds)
    const maxOldGone: number[] = []
    for (let i = 0; i < 12; i++) {
      await runPass(dsController, cache, T0 + 10_000 + i * 1000)
      const live = cache.list(pods).filter((p) => (p.status as any)?.phase === 'Running').length
      maxOldGone.push(3 - live)
      await pass(cache, T0 + 10_000 + i * 1000)
    }
    expect(Math.max(...maxOldGone)).toBeLessThanOrEqual(1)
    expect(cache.list(pods).map((p) => (p.spec as any).containers[0].image)).toEqual([
      'agent:2',
      'agent:2',
      'agent:2',
    ])
    expect(
      cache
        .list(controllerRevisions)
        .map((r) => (r as any).revision)
        .sort(),
    ).toEqual([1, 2])
    expect(cache.get(daemonSets, 'default', 'ds')!.status).toMatchObject({
      updatedNumberScheduled: 3,
      numberAvailable: 3,
      observedGeneration: 2,
    })
  })

  it('deletes the pod of a node that gets an untolerated NoExecute taint, and counts misscheduled ones', async () => {
    const cache = new MemoryCache()
    cache.write(nodes, newNode('a'))
    cache.write(daemonSets, newDaemonSet('ds'))
    await pass(cache, T0)
    cache.write(
      nodes,
      newNode('a', { labels: { x: 'y' }, taints: [{ key: 'gpu', effect: 'NoExecute' }] }),
    )
    await runPass(dsController, cache, T0 + 1000)
    // The bound pod is deleted gracefully: terminating until its kubelet finishes it.
    expect(cache.list(pods).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(0)
  })
})
