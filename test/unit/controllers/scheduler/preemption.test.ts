import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods } from '../../../../src/controllers/resources'
import type { Action } from '../../../../src/controllers/runtime/types'
import { schedulerController as declaredSchedulerController } from '../../../../src/controllers/scheduler'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newNode, newPod } from '../../../helpers'
import { byPriority } from '../../../../src/controllers/scheduler/queue-order'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const schedulerController = (...args: Parameters<typeof declaredSchedulerController>) =>
  withProjections(declaredSchedulerController(...args))

const now = Date.parse('2025-06-01T12:00:00Z')
const oneCpu = { cpu: '1', memory: '4Gi', pods: '10' }

const withPriority = (name: string, priority: number, f: Parameters<typeof newPod>[1] = {}) =>
  newPod(name, { ...f, spec: { priority, ...f.spec } })
const deleted = (actions: Action[]) =>
  actions.filter((a) => a.type === 'delete').map((a) => (a as { name: string }).name)
const events = (actions: Action[], reason: string) =>
  actions.filter(
    (a): a is Extract<Action, { type: 'event' }> => a.type === 'event' && a.reason === reason,
  )
/** The status the preemptor's own status patch writes. */
const statusOf = (actions: Action[]) =>
  (
    actions.find((a) => a.type === 'patch' && a.name === 'high' && a.subresource === 'status') as
      | { patch: { status: Record<string, unknown> } }
      | undefined
  )?.patch.status

describe('scheduler preemption', () => {
  it('evicts the lowest-priority pods that make room, nominates the node and reports it', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      withPriority('low-a', 10, { nodeName: 'n1', requests: { cpu: '400m' } }),
      withPriority('low-b', 20, { nodeName: 'n1', requests: { cpu: '400m' } }),
      withPriority('high', 1000, { requests: { cpu: '500m' } }),
    )
    const out = schedulerController().reconcile('default/high', cache, now)
    // low-b (more important) is reprieved: evicting low-a alone frees enough.
    expect(deleted(out.actions)).toEqual(['low-a'])
    const [preempted] = events(out.actions, 'Preempted')
    expect(preempted?.involved.metadata.name).toBe('low-a')
    expect(preempted?.message).toBe('Preempted by pod uid-high on node n1')
    const marked = out.actions.find(
      (a): a is Extract<Action, { type: 'patch' }> => a.type === 'patch',
    )
    expect(marked).toMatchObject({ name: 'low-a', subresource: 'status' })
    expect(
      (marked!.patch as { status: { conditions: unknown[] } }).status.conditions,
    ).toContainEqual(
      expect.objectContaining({
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'PreemptionByScheduler',
        message: 'default-scheduler: preempting to accommodate a higher priority pod',
      }),
    )
    expect(statusOf(out.actions)?.nominatedNodeName).toBe('n1')
    expect(events(out.actions, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu.',
    )
    expect(out.actions.some((a) => a.type === 'bind')).toBe(false)
  })

  it('prefers the node whose victims have the lowest priority, then the fewest of them', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      newNode('n2', { allocatable: oneCpu }),
      newNode('n3', { allocatable: oneCpu }),
      withPriority('n1-mid', 50, { nodeName: 'n1', requests: { cpu: '900m' } }),
      withPriority('n2-low-a', 5, { nodeName: 'n2', requests: { cpu: '450m' } }),
      withPriority('n2-low-b', 5, { nodeName: 'n2', requests: { cpu: '450m' } }),
      withPriority('n3-low', 5, { nodeName: 'n3', requests: { cpu: '900m' } }),
      withPriority('high', 100, { requests: { cpu: '800m' } }),
    )
    const out = schedulerController().reconcile('default/high', cache, now)
    expect(statusOf(out.actions)?.nominatedNodeName).toBe('n3')
    expect(deleted(out.actions)).toEqual(['n3-low'])
  })

  it('never evicts pods of equal or higher priority, and says so', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      withPriority('same', 100, { nodeName: 'n1', requests: { cpu: '900m' } }),
      withPriority('p', 100, { requests: { cpu: '500m' } }),
    )
    const out = schedulerController().reconcile('default/p', cache, now)
    expect(deleted(out.actions)).toEqual([])
    expect(events(out.actions, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    )
  })

  it('reports a node that would still be short after evicting every lower-priority pod', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      withPriority('big', 500, { nodeName: 'n1', requests: { cpu: '800m' } }),
      withPriority('small', 1, { nodeName: 'n1', requests: { cpu: '100m' } }),
      withPriority('p', 100, { requests: { cpu: '500m' } }),
    )
    const out = schedulerController().reconcile('default/p', cache, now)
    expect(deleted(out.actions)).toEqual([])
    expect(events(out.actions, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    )
  })

  it('honours preemptionPolicy: Never', async () => {
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      withPriority('low', 1, { nodeName: 'n1', requests: { cpu: '900m' } }),
      withPriority('p', 100, { requests: { cpu: '500m' }, spec: { preemptionPolicy: 'Never' } }),
    )
    const out = schedulerController().reconcile('default/p', cache, now)
    expect(deleted(out.actions)).toEqual([])
    expect(events(out.actions, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    )
  })

  it('waits for its victims to terminate instead of preempting again', async () => {
    const preemptor = withPriority('p', 100, { requests: { cpu: '500m' } })
    ;(preemptor.status as Record<string, unknown>).nominatedNodeName = 'n1'
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      withPriority('leaving', 1, {
        nodeName: 'n1',
        requests: { cpu: '900m' },
        deletionTimestamp: '2025-06-01T11:59:59Z',
        conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }],
      }),
      preemptor,
    )
    const out = schedulerController().reconcile('default/p', cache, now)
    expect(deleted(out.actions)).toEqual([])
    expect(events(out.actions, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.',
    )
  })

  it('keeps the room nominated for a higher-priority pod from lower ones', async () => {
    const nominatedPod = withPriority('high', 100, { requests: { cpu: '600m' } })
    ;(nominatedPod.status as Record<string, unknown>).nominatedNodeName = 'n1'
    const cache = new MemoryCache(
      newNode('n1', { allocatable: oneCpu }),
      nominatedPod,
      withPriority('low', 1, { requests: { cpu: '600m' } }),
    )
    const low = schedulerController().reconcile('default/low', cache, now)
    expect(low.actions.some((a) => a.type === 'bind')).toBe(false)
    const high = schedulerController().reconcile('default/high', cache, now)
    expect(high.actions.find((a) => a.type === 'bind')).toMatchObject({ nodeName: 'n1' })
  })

  it('takes pending pods highest priority first, then oldest first', async () => {
    const cache = new MemoryCache(
      withPriority('old-low', 1, { creationTimestamp: '2025-01-01T00:00:00Z' }),
      withPriority('new-high', 100, { creationTimestamp: '2025-01-03T00:00:00Z' }),
      withPriority('old-high', 100, { creationTimestamp: '2025-01-02T00:00:00Z' }),
      newPod('unset'),
    )
    expect(
      byPriority(
        [
          'default/old-low',
          'default/unset',
          'default/new-high',
          'default/gone',
          'default/old-high',
        ],
        cache,
      ),
    ).toEqual([
      'default/old-high',
      'default/new-high',
      'default/old-low',
      'default/unset',
      'default/gone',
    ])
    expect(cache.get(pods, 'default', 'unset')).toBeDefined()
  })
})
