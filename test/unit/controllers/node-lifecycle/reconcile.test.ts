import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { nodeLifecycleController as declaredNodeLifecycleController } from '../../../../src/controllers/node-lifecycle'
import type { Taint } from '../../../../src/controllers/node-lifecycle/taints'
import { MAX_POD_WRITES_PER_NODE_PASS } from '../../../../src/controllers/node-lifecycle/reconcile'
import { leases, nodes, pods } from '../../../../src/controllers/resources'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { briefAction, newLease, newNode, newPod } from '../../../helpers'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const nodeLifecycleController = (...args: Parameters<typeof declaredNodeLifecycleController>) =>
  withProjections(declaredNodeLifecycleController(...args))

const t = (iso: string) => Date.parse(iso)
const renewed = '2025-06-01T12:00:00Z'
const controller = nodeLifecycleController({ gracePeriodMs: 40_000 })

const types = (actions: Action[]) => actions.map(briefAction)
const taintsOf = (node: KubeObject) =>
  ((node.spec as { taints?: Taint[] }).taints ?? []).map((x) => `${x.key}:${x.effect}`)
const conditionsOf = (node: KubeObject) =>
  (node.status as { conditions: Record<string, unknown>[] }).conditions

/** A node already marked unreachable by an earlier pass: every monitored condition Unknown. */
function unreachableNode(name: string, taints: Taint[]): KubeObject {
  const unknown = (type: string) => ({
    type,
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    lastHeartbeatTime: renewed,
    lastTransitionTime: renewed,
  })
  return newNode(name, {
    ready: 'Unknown',
    heartbeat: renewed,
    taints,
    conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure'].map(unknown),
  })
}

/** A Ready node besides the one under test: with every node not ready, none is tainted NoExecute (disruption mode). */
const peer = () => [
  newNode('peer', { heartbeat: renewed }),
  newLease('peer', '2025-06-02T00:00:00Z'),
]

function healthyCluster(...extra: KubeObject[]) {
  return new MemoryCache(
    newNode('n1', { heartbeat: '2025-06-01T11:00:00Z' }),
    newLease('n1', renewed),
    ...peer(),
    ...extra,
  )
}

describe('node-lifecycle reconcile', () => {
  it('leaves a fresh node alone, its lease store to announce the lease once it expires', async () => {
    const cache = healthyCluster(newPod('p', { nodeName: 'n1' }))
    expect(controller.reconcile('n1', cache, t(renewed) + 10_000)).toEqual({ actions: [] })
    expect(controller.reconcile('n1', cache, t(renewed) - 60_000)).toEqual({ actions: [] })
  })

  it('comes back by itself once the lease passed its deadline and the Ready heartbeat keeps it fresh', async () => {
    const cache = new MemoryCache(
      newNode('n1', { heartbeat: '2025-06-01T12:00:30Z' }),
      newLease('n1', renewed),
      ...peer(),
    )
    expect(controller.reconcile('n1', cache, t(renewed) + 41_000)).toEqual({
      actions: [],
      requeueAfterMs: 29_001,
    })
  })

  it('caps the recheck to the grace period', async () => {
    const cache = new MemoryCache(newNode('n1', { heartbeat: renewed }), ...peer())
    expect(controller.reconcile('n1', cache, t(renewed) - 60_000).requeueAfterMs).toBe(40_000)
  })

  it('uses the configured grace period', async () => {
    const cache = healthyCluster()
    expect(
      nodeLifecycleController({ gracePeriodMs: 5000 }).reconcile('n1', cache, t(renewed) + 5001)
        .actions.length,
    ).toBeGreaterThan(0)
    expect(nodeLifecycleController().reconcile('n1', cache, t(renewed) + 39_000).actions).toEqual(
      [],
    )
  })

  it('marks a silent node Unknown, taints it and records the event', async () => {
    const cache = healthyCluster()
    const now = t(renewed) + 40_001
    const out = controller.reconcile('n1', cache, now)
    expect(types(out.actions)).toEqual([
      'update nodes n1',
      'patch nodes n1/status',
      'event NodeNotReady n1',
    ])
    expect(out.requeueAfterMs).toBeUndefined()
    const [update, patch, event] = out.actions
    expect(update).toMatchObject({
      type: 'update',
      object: { metadata: { name: 'n1', resourceVersion: '1' } },
    })
    expect((update as Extract<Action, { type: 'update' }>).object.spec).toEqual({
      taints: [
        {
          key: 'node.kubernetes.io/unreachable',
          effect: 'NoSchedule',
          timeAdded: '2025-06-01T12:00:40Z',
        },
        {
          key: 'node.kubernetes.io/unreachable',
          effect: 'NoExecute',
          timeAdded: '2025-06-01T12:00:40Z',
        },
      ],
    })
    expect(patch).toMatchObject({ type: 'patch', name: 'n1', subresource: 'status' })
    expect(event).toMatchObject({
      eventType: 'Normal',
      message: 'Node n1 status is now: NodeNotReady',
    })

    await cache.applyAll(out.actions)
    const node = cache.get(nodes, undefined, 'n1')!
    expect(conditionsOf(node).map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Ready', 'Unknown', 'NodeStatusUnknown'],
      ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated'],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated'],
    ])
    expect(conditionsOf(node)[0].message).toBe('Kubelet stopped posting node status.')

    // a second pass finds nothing left to write
    expect(controller.reconcile('n1', cache, now + 5000)).toEqual({ actions: [] })
  })

  it('without a lease, judges by the Ready heartbeat', async () => {
    const cache = new MemoryCache(newNode('n1', { heartbeat: renewed }))
    expect(controller.reconcile('n1', cache, t(renewed) + 39_000)).toEqual({
      actions: [],
      requeueAfterMs: 1001,
    })
    expect(types(controller.reconcile('n1', cache, t(renewed) + 41_000).actions)).toContain(
      'patch nodes n1/status',
    )
  })

  it('marks the pods of an unreachable node not ready', async () => {
    const ready = [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-06-01T00:00:00Z' }]
    const cache = healthyCluster(
      newPod('p', { nodeName: 'n1', conditions: ready, tolerations: [{ operator: 'Exists' }] }),
    )
    const out = controller.reconcile('n1', cache, t(renewed) + 50_000)
    expect(types(out.actions)).toEqual([
      'update nodes n1',
      'patch nodes n1/status',
      'event NodeNotReady n1',
      'patch pods default/p/status',
      'event NodeNotReady default/p',
    ])
    // only the conditions, and only of the pod as read
    expect(out.actions[3]).toMatchObject({
      type: 'patch',
      subresource: 'status',
      patch: {
        metadata: { resourceVersion: cache.get(pods, 'default', 'p')!.metadata.resourceVersion },
      },
    })
    expect(Object.keys((out.actions[3] as { patch: { status: object } }).patch.status)).toEqual([
      'conditions',
    ])
    expect(out.actions[4]).toMatchObject({
      type: 'event',
      eventType: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node is not ready',
      involved: { metadata: { name: 'p' } },
    })
    await cache.applyAll(out.actions)
    expect(
      (cache.get(pods, 'default', 'p')!.status as { conditions: unknown[] }).conditions,
    ).toEqual([{ type: 'Ready', status: 'False', lastTransitionTime: '2025-06-01T12:00:50Z' }])
    // once marked, a later pass over the still unreachable node leaves the pod alone
    expect(types(controller.reconcile('n1', cache, t(renewed) + 55_000).actions)).not.toContain(
      'patch pods default/p/status',
    )
  })

  it('marks at most MAX_POD_WRITES_PER_NODE_PASS pods of a node per pass and comes back at once for the rest', async () => {
    const ready = [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-06-01T00:00:00Z' }]
    const total = MAX_POD_WRITES_PER_NODE_PASS + 30
    const cache = healthyCluster(
      ...Array.from({ length: total }, (_, i) =>
        newPod(`p-${i}`, {
          nodeName: 'n1',
          conditions: ready,
          tolerations: [{ operator: 'Exists' }],
        }),
      ),
    )
    const marked = (actions: Action[]) =>
      actions.filter((a) => a.type === 'patch' && a.resource.plural === 'pods').length
    const first = controller.reconcile('n1', cache, t(renewed) + 50_000)
    expect(marked(first.actions)).toBe(MAX_POD_WRITES_PER_NODE_PASS)
    expect(first.requeueAfterMs).toBe(0)
    await cache.applyAll(first.actions)
    const second = controller.reconcile('n1', cache, t(renewed) + 50_100)
    expect(marked(second.actions)).toBe(30)
    await cache.applyAll(second.actions)
    const notReady = cache
      .list(pods)
      .filter(
        (p) => (p.status as { conditions: { status: string }[] }).conditions[0]!.status === 'False',
      )
    expect(notReady).toHaveLength(total)
  })

  it('evicts pods that do not tolerate the NoExecute taint and keeps those that do', async () => {
    const cache = healthyCluster(
      newPod('plain', { nodeName: 'n1' }),
      newPod('daemon', {
        nodeName: 'n1',
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        ],
      }),
      newPod('elsewhere', { nodeName: 'n2' }),
    )
    const stale = t(renewed) + 45_000
    await cache.applyAll(controller.reconcile('n1', cache, stale).actions)

    // the pass after the tainted node came back through the watch
    const out = controller.reconcile('n1', cache, stale + 100)
    expect(types(out.actions)).toEqual([
      'delete pods default/plain',
      'event TaintManagerEviction default/plain',
    ])
    expect(out.actions[0]).toEqual({
      type: 'delete',
      resource: pods,
      namespace: 'default',
      name: 'plain',
      preconditions: { uid: 'uid-plain' },
    })
    expect(out.actions[1]).toMatchObject({
      eventType: 'Normal',
      message: 'Marking for deletion Pod default/plain',
    })
    expect(out.requeueAfterMs).toBeUndefined()
    await cache.applyAll(out.actions)
    // A bound pod is deleted gracefully: it is terminating until its kubelet finishes it.
    expect(
      cache
        .list(pods)
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['daemon', 'elsewhere'])
  })

  it('evicts a pod with tolerationSeconds 2 only once 2 s have passed', async () => {
    const taintedAt = '2025-06-01T12:00:41Z'
    const node = unreachableNode('n1', [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: taintedAt },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: taintedAt },
    ])
    const pod = newPod('p', {
      nodeName: 'n1',
      tolerations: [
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 2,
        },
      ],
    })
    const cache = new MemoryCache(node, newLease('n1', renewed), ...peer(), pod)

    expect(controller.reconcile('n1', cache, t(taintedAt))).toEqual({
      actions: [],
      requeueAfterMs: 2000,
    })
    expect(controller.reconcile('n1', cache, t(taintedAt) + 1500)).toEqual({
      actions: [],
      requeueAfterMs: 500,
    })
    expect(types(controller.reconcile('n1', cache, t(taintedAt) + 2000).actions)).toEqual([
      'delete pods default/p',
      'event TaintManagerEviction default/p',
    ])
  })

  it('does not evict a pod twice', async () => {
    const node = unreachableNode('n1', [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: renewed },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: renewed },
    ])
    const cache = new MemoryCache(
      node,
      newLease('n1', renewed),
      ...peer(),
      newPod('p', { nodeName: 'n1', deletionTimestamp: renewed }),
    )
    expect(controller.reconcile('n1', cache, t(renewed) + 60_000)).toEqual({ actions: [] })
  })

  it('evicts from a node tainted NoExecute by someone else, whatever its health', async () => {
    const cache = healthyCluster(newPod('p', { nodeName: 'n1' }))
    const node = cache.get(nodes, undefined, 'n1')!
    cache.add({ ...node, spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } })
    const out = controller.reconcile('n1', cache, t(renewed) + 1000)
    expect(types(out.actions)).toEqual([
      'delete pods default/p',
      'event TaintManagerEviction default/p',
    ])
    expect(out.requeueAfterMs).toBeUndefined()
  })

  it('removes the taints once the node is fresh and Ready again', async () => {
    const taints: Taint[] = [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: renewed },
      { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: renewed },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: renewed },
    ]
    const back = '2025-06-01T12:10:00Z'
    const cache = new MemoryCache(newNode('n1', { heartbeat: back, taints }), newLease('n1', back))
    const out = controller.reconcile('n1', cache, t(back) + 1000)
    expect(types(out.actions)).toEqual(['update nodes n1'])
    expect(out.requeueAfterMs).toBeUndefined()
    await cache.applyAll(out.actions)
    expect(taintsOf(cache.get(nodes, undefined, 'n1')!)).toEqual(['dedicated:NoSchedule'])
    expect(controller.reconcile('n1', cache, t(back) + 2000)).toEqual({ actions: [] })
  })

  it('keeps the taints while the lease is fresh but the kubelet has not yet reported Ready', async () => {
    const taints: Taint[] = [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: renewed },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: renewed },
    ]
    const cache = new MemoryCache(
      newNode('n1', { ready: 'Unknown', taints }),
      newLease('n1', '2025-06-01T12:10:00Z'),
      ...peer(),
    )
    expect(controller.reconcile('n1', cache, t('2025-06-01T12:10:01Z')).actions).toEqual([])
  })

  it('does nothing for a node that is gone', async () => {
    expect(controller.reconcile('missing', new MemoryCache(), 0)).toEqual({ actions: [] })
  })
})

describe('node-lifecycle keys', () => {
  it('watches nodes, leases and pods', async () => {
    expect(controller.name).toBe('node-lifecycle')
    expect(controller.watches.kinds).toEqual([nodes, leases, pods])
  })

  it('maps nodes, node leases and pods on troubled nodes to node names', async () => {
    const troubled = newNode('bad', { ready: 'Unknown' })
    const tainted = newNode('tainted', { taints: [{ key: 'x', effect: 'NoExecute' }] })
    const cache = new MemoryCache(newNode('good'), troubled, tainted)
    expect(controller.watches.keysFor(nodes, troubled, cache)).toEqual(['bad'])
    expect(controller.watches.keysFor(leases, newLease('good', renewed), cache)).toEqual(['good'])
    const otherLease = {
      ...newLease('good', renewed),
      metadata: { name: 'leader', namespace: 'kube-system' },
    }
    expect(controller.watches.keysFor(leases, otherLease, cache)).toEqual([])
    expect(controller.watches.keysFor(pods, newPod('a', { nodeName: 'bad' }), cache)).toEqual([
      'bad',
    ])
    expect(controller.watches.keysFor(pods, newPod('b', { nodeName: 'tainted' }), cache)).toEqual([
      'tainted',
    ])
    expect(controller.watches.keysFor(pods, newPod('c', { nodeName: 'good' }), cache)).toEqual([])
    expect(controller.watches.keysFor(pods, newPod('d'), cache)).toEqual([])
    expect(controller.watches.allKeys(cache).sort()).toEqual(['bad', 'good', 'tainted'])
  })
})
