import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  namespaces,
  nodes,
  persistentVolumeClaims,
  pods,
} from '../../../../src/controllers/resources'
import { persistentVolumes, storageClasses } from '../../../../src/controllers/resources'
import type { Action, Outcome } from '../../../../src/controllers/runtime/types'
import { schedulerController as declaredSchedulerController } from '../../../../src/controllers/scheduler'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newNode, newPod } from '../../../helpers'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const schedulerController = (...args: Parameters<typeof declaredSchedulerController>) =>
  withProjections(declaredSchedulerController(...args))

const now = Date.parse('2025-06-01T12:00:00Z')
const small = { cpu: '1', memory: '2Gi', pods: '10' }

const bindTarget = (actions: Action[]) =>
  actions.find((a): a is Extract<Action, { type: 'bind' }> => a.type === 'bind')?.nodeName

function podScheduled(cache: MemoryCache, name: string) {
  const pod = cache.get(pods, 'default', name)!
  return ((pod.status as { conditions?: Record<string, unknown>[] }).conditions ?? []).find(
    (c) => c.type === 'PodScheduled',
  )
}

describe('scheduler reconcile', () => {
  it('binds to the only fitting node and reports it', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: small }),
      newNode('n2', { ready: false }),
      newPod('web', { requests: { cpu: '500m' } }),
    )
    const out = schedulerController().reconcile('default/web', cache, now)
    expect(out).toEqual({
      actions: [
        { type: 'bind', namespace: 'default', name: 'web', uid: 'uid-web', nodeName: 'n1' },
        // the event names the pod as the scheduler holds it (its events read only its identity)
        {
          type: 'event',
          involved: expect.objectContaining({
            kind: 'Pod',
            metadata: cache.get(pods, 'default', 'web')!.metadata,
          }),
          eventType: 'Normal',
          reason: 'Scheduled',
          message: 'Successfully assigned default/web to n1',
        },
      ],
    })
  })

  it.each<[string, KubeObject]>([
    ['already bound', newPod('p', { nodeName: 'n1' })],
    ['being deleted', newPod('p', { deletionTimestamp: '2025-01-01T00:00:00Z' })],
    ['finished', newPod('p', { phase: 'Failed' })],
    ['addressed to another scheduler', newPod('p', { schedulerName: 'other' })],
    ['gated', newPod('p', { spec: { schedulingGates: [{ name: 'wait' }] } })],
  ])('leaves a pod that is %s alone', (_, pod) => {
    const cache = new MemoryCache(newNode('n1'), pod)
    expect(schedulerController().reconcile('default/p', cache, now)).toEqual({ actions: [] })
  })

  it('does nothing for a pod that is gone', async () => {
    expect(
      schedulerController().reconcile('default/missing', new MemoryCache(newNode('n1')), now),
    ).toEqual({ actions: [] })
  })

  it('treats an empty schedulerName as the default scheduler', async () => {
    const cache = new MemoryCache(newNode('n1'), newPod('p', { spec: { schedulerName: '' } }))
    expect(bindTarget(schedulerController().reconcile('default/p', cache, now).actions)).toBe('n1')
  })

  it('serves another scheduler name when configured to', async () => {
    const cache = new MemoryCache(newNode('n1'), newPod('p', { schedulerName: 'batch' }))
    expect(
      bindTarget(
        schedulerController({ schedulerName: 'batch' }).reconcile('default/p', cache, now).actions,
      ),
    ).toBe('n1')
    expect(schedulerController().reconcile('default/p', cache, now).actions).toEqual([])
  })

  it('marks an unschedulable pod with upstream’s message, a warning event and no requeue', async () => {
    const cache = new MemoryCache(
      newNode('tainted', { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] }),
      newNode('busy-1', { allocatable: small }),
      newNode('busy-2', { allocatable: small }),
      newPod('big', { requests: { cpu: '2' } }),
    )
    const out = schedulerController().reconcile('default/big', cache, now)
    const message =
      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: infra}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.'
    expect(out.requeueAfterMs).toBeUndefined()
    expect(out.actions.map((a) => a.type)).toEqual(['patch', 'event'])
    expect(out.actions[1]).toMatchObject({
      eventType: 'Warning',
      reason: 'FailedScheduling',
      message,
    })
    await cache.applyAll(out.actions)
    // the status merge patch drops the null lastProbeTime (a merge patch prunes nulls)
    expect(podScheduled(cache, 'big')).toEqual({
      type: 'PodScheduled',
      status: 'False',
      lastTransitionTime: '2025-06-01T12:00:00Z',
      reason: 'Unschedulable',
      message,
    })
  })

  it('writes nothing when the same message is already recorded, and again when it changes', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: small }),
      newPod('big', { requests: { cpu: '2' } }),
    )
    const scheduler = schedulerController()
    await cache.applyAll(scheduler.reconcile('default/big', cache, now).actions)
    expect(scheduler.reconcile('default/big', cache, now + 1000)).toEqual({ actions: [] })

    cache.add(newNode('n2', { allocatable: small, ready: false }))
    const changed = scheduler.reconcile('default/big', cache, now + 2000)
    expect(changed.actions.map((a) => a.type)).toEqual(['patch', 'event'])
    await cache.applyAll(changed.actions)
    const condition = podScheduled(cache, 'big')!
    expect(condition.message).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were not ready. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    )
    // the status did not change, so neither does the transition time
    expect(condition.lastTransitionTime).toBe('2025-06-01T12:00:00Z')
  })

  it('keeps the pod’s other conditions when recording the failure', async () => {
    const pod = newPod('p', {
      requests: { cpu: '9' },
      conditions: [{ type: 'Custom', status: 'True' }],
    })
    const cache = new MemoryCache(newNode('n1'), pod)
    await cache.applyAll(schedulerController().reconcile('default/p', cache, now).actions)
    const conditions = (
      cache.get(pods, 'default', 'p')!.status as { conditions: { type: string }[] }
    ).conditions
    expect(conditions.map((c) => c.type)).toEqual(['Custom', 'PodScheduled'])
  })

  it('reports a cluster without nodes', async () => {
    const cache = new MemoryCache(newPod('p'))
    const out = schedulerController().reconcile('default/p', cache, now)
    expect(out.actions[1]).toMatchObject({
      reason: 'FailedScheduling',
      message: 'no nodes available to schedule pods',
    })
  })

  it('spreads replicas of one owner across equal nodes', async () => {
    const replicas = ['r0', 'r1', 'r2'].map((n) =>
      newPod(n, { owner: 'rs-web', requests: { cpu: '100m', memory: '64Mi' } }),
    )
    const cache = new MemoryCache(newNode('a'), newNode('b'), newNode('c'), ...replicas)
    const scheduler = schedulerController()
    const placed: (string | undefined)[] = []
    for (const p of replicas) {
      const actions = scheduler.reconcile(`default/${p.metadata.name}`, cache, now).actions
      await cache.applyAll(actions)
      placed.push(bindTarget(actions))
    }
    expect(placed.sort()).toEqual(['a', 'b', 'c'])
  })

  it('spreads replicas even onto a busier node', async () => {
    const busy = newPod('other', { nodeName: 'b', requests: { cpu: '1', memory: '1Gi' } })
    const replicas = ['r0', 'r1'].map((n) =>
      newPod(n, { owner: 'rs-web', requests: { cpu: '100m', memory: '64Mi' } }),
    )
    const cache = new MemoryCache(newNode('a'), newNode('b'), busy, ...replicas)
    const scheduler = schedulerController()
    const placed: (string | undefined)[] = []
    for (const p of replicas) {
      const actions = scheduler.reconcile(`default/${p.metadata.name}`, cache, now).actions
      await cache.applyAll(actions)
      placed.push(bindTarget(actions))
    }
    expect(placed).toEqual(['a', 'b'])
  })

  it('accounts for pods bound earlier in the same pass', async () => {
    // Each node holds exactly one of these pods: a scheduler reading stale capacity would stack them.
    const batch = ['p0', 'p1', 'p2'].map((n) => newPod(n, { requests: { cpu: '800m' } }))
    const cache = new MemoryCache(
      newNode('n1', { allocatable: small }),
      newNode('n2', { allocatable: small }),
      ...batch,
    )
    const scheduler = schedulerController()
    const results: Outcome[] = []
    for (const p of batch) {
      const out = scheduler.reconcile(`default/${p.metadata.name}`, cache, now)
      await cache.applyAll(out.actions)
      results.push(out)
    }
    expect(
      results
        .slice(0, 2)
        .map((r) => bindTarget(r.actions))
        .sort(),
    ).toEqual(['n1', 'n2'])
    expect(results[2].actions[1]).toMatchObject({
      reason: 'FailedScheduling',
      message:
        '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    })
  })

  it('does not count finished pods against capacity', async () => {
    const done = newPod('done', { nodeName: 'n1', requests: { cpu: '1' }, phase: 'Succeeded' })
    const cache = new MemoryCache(
      newNode('n1', { allocatable: small }),
      done,
      newPod('p', { requests: { cpu: '1' } }),
    )
    expect(bindTarget(schedulerController().reconcile('default/p', cache, now).actions)).toBe('n1')
  })

  it('counts terminating pods against capacity until they are gone', async () => {
    const leaving = newPod('leaving', {
      nodeName: 'n1',
      requests: { cpu: '1' },
      deletionTimestamp: '2025-06-01T11:59:00Z',
    })
    const cache = new MemoryCache(
      newNode('n1', { allocatable: small }),
      leaving,
      newPod('p', { requests: { cpu: '1' } }),
    )
    expect(
      bindTarget(schedulerController().reconcile('default/p', cache, now).actions),
    ).toBeUndefined()
  })
})

describe('scheduler keys', () => {
  const pending = () => [newPod('a'), newPod('b', { namespace: 'team' })]

  it('watches pods, nodes, what volume binding reads and namespaces (their Pod Security labels)', async () => {
    expect(schedulerController().watches.kinds).toEqual([
      pods,
      nodes,
      persistentVolumeClaims,
      persistentVolumes,
      storageClasses,
      namespaces,
    ])
    expect(schedulerController().name).toBe('scheduler')
  })

  it('lists every pending pod on a full resync', async () => {
    const cache = new MemoryCache(newNode('n1'), ...pending(), newPod('bound', { nodeName: 'n1' }))
    expect(schedulerController().watches.allKeys(cache).sort()).toEqual(['default/a', 'team/b'])
  })

  it('maps a pending pod to its own key and an ordinary bound pod to nothing', async () => {
    const cache = new MemoryCache(newNode('n1'), ...pending())
    const scheduler = schedulerController()
    expect(scheduler.watches.keysFor(pods, cache.get(pods, 'default', 'a')!, cache)).toEqual([
      'default/a',
    ])
    const bound = newPod('bound', { nodeName: 'n1' })
    cache.add(bound)
    expect(scheduler.watches.keysFor(pods, bound, cache)).toEqual([])
  })

  it('retries pending pods when a bound pod is deleted or finishes', async () => {
    const cache = new MemoryCache(newNode('n1'), ...pending())
    const scheduler = schedulerController()
    const deleted = newPod('gone', { nodeName: 'n1' })
    expect(scheduler.watches.keysFor(pods, deleted, cache).sort()).toEqual(['default/a', 'team/b'])
    const finished = newPod('done', { nodeName: 'n1', phase: 'Succeeded' })
    cache.add(finished)
    expect(scheduler.watches.keysFor(pods, finished, cache).sort()).toEqual(['default/a', 'team/b'])
  })

  it('retries pending pods when a node appears or changes what the filters read, not on heartbeats', async () => {
    const node = newNode('n1')
    const cache = new MemoryCache(node, ...pending())
    const scheduler = schedulerController()
    const all = ['default/a', 'team/b']
    expect(scheduler.watches.keysFor(nodes, node, cache).sort()).toEqual(all)

    const heartbeat = newNode('n1', { heartbeat: '2025-06-01T12:00:00Z' })
    cache.add(heartbeat)
    expect(scheduler.watches.keysFor(nodes, heartbeat, cache)).toEqual([])

    const changes: KubeObject[] = [
      newNode('n1', { ready: false }),
      newNode('n1', { ready: true, taints: [{ key: 'k', effect: 'NoSchedule' }] }),
      newNode('n1', { unschedulable: true }),
      newNode('n1', { allocatable: { cpu: '8', memory: '8Gi', pods: '110' } }),
      newNode('n1', {
        allocatable: { cpu: '8', memory: '8Gi', pods: '110' },
        labels: { zone: 'a' },
      }),
    ]
    for (const changed of changes) {
      cache.add(changed)
      expect(scheduler.watches.keysFor(nodes, changed, cache).sort()).toEqual(all)
    }
  })

  it('does not count the previous version of a changed node as another change', async () => {
    const cache = new MemoryCache(newNode('n1'), ...pending())
    const scheduler = schedulerController()
    expect(
      scheduler.watches.keysFor(nodes, cache.get(nodes, undefined, 'n1')!, cache),
    ).toHaveLength(2)
    const previous = cache.get(nodes, undefined, 'n1')!
    const tainted = newNode('n1', { taints: [{ key: 'k', effect: 'NoSchedule' }] })
    cache.add(tainted)
    expect(scheduler.watches.keysFor(nodes, tainted, cache)).toHaveLength(2)
    expect(scheduler.watches.keysFor(nodes, previous, cache)).toEqual([])
    const heartbeat = newNode('n1', {
      taints: [{ key: 'k', effect: 'NoSchedule' }],
      heartbeat: '2025-06-01T12:00:00Z',
    })
    cache.add(heartbeat)
    expect(scheduler.watches.keysFor(nodes, heartbeat, cache)).toEqual([])
    expect(scheduler.watches.keysFor(nodes, tainted, cache)).toEqual([])
  })

  it('does not retry when a node is deleted', async () => {
    const node = newNode('n1')
    const cache = new MemoryCache(...pending())
    expect(schedulerController().watches.keysFor(nodes, node, cache)).toEqual([])
  })
})
