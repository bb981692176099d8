import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  deletesBefore,
  podsToDelete,
  rankByRelatedPodsOnSameNode,
  relatedPods,
} from '../../../../src/controllers/replicaset/pods-to-delete'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import { newDeployment, newPod, newReplicaSet, type PodFixture } from '../../../helpers'
import { toReplicaSet } from '../../../../src/controllers/shared/workloads'

const now = T0
const hour = 3600_000
/** A pod created ten hours before now. */
const agedPod = (name: string, f: PodFixture = {}) =>
  newPod(name, { creationTimestamp: T0 - 10 * hour, ...f })

describe('replicaset victim ranking (ActivePodsWithRanks)', () => {
  it.each<{ name: string; first: KubeObject; then: KubeObject; ranks?: [number, number] }>([
    {
      name: 'unassigned before assigned',
      first: agedPod('a'),
      then: agedPod('b', { nodeName: 'n1' }),
    },
    {
      name: 'Pending before Unknown',
      first: agedPod('a', { nodeName: 'n1', phase: 'Pending' }),
      then: agedPod('b', { nodeName: 'n1', phase: 'Unknown' }),
    },
    {
      name: 'Unknown before Running',
      first: agedPod('a', { nodeName: 'n1', phase: 'Unknown' }),
      then: agedPod('b', { nodeName: 'n1', phase: 'Running' }),
    },
    {
      name: 'not ready before ready',
      first: agedPod('a', { phase: 'Running', notReady: true }),
      then: agedPod('b', { readySince: T0 - hour }),
    },
    {
      name: 'lower pod-deletion-cost before higher',
      first: agedPod('a', {
        readySince: T0 - hour,
        annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5' },
      }),
      then: agedPod('b', { readySince: T0 - 2 * hour }),
    },
    {
      name: 'more related pods on its node before fewer',
      first: agedPod('a', { readySince: T0 - 2 * hour }),
      then: agedPod('b', { readySince: T0 - 2 * hour }),
      ranks: [3, 1],
    },
    {
      name: 'ready for a shorter time before longer',
      first: agedPod('a', { readySince: T0 - 60_000 }),
      then: agedPod('b', { readySince: T0 - 5 * hour }),
    },
    {
      name: 'more restarts before fewer',
      first: agedPod('a', { readySince: T0 - hour, restarts: 4 }),
      then: agedPod('b', { readySince: T0 - hour, restarts: 1 }),
    },
    {
      name: 'newer before older',
      first: agedPod('a', { creationTimestamp: T0 - 60_000 }),
      then: agedPod('b', { creationTimestamp: T0 - 5 * hour }),
    },
  ])('$name', ({ first, then, ranks = [0, 0] }) => {
    const a = { pod: first, rank: ranks[0] }
    const b = { pod: then, rank: ranks[1] }
    expect(deletesBefore(a, b, now)).toBe(true)
    expect(deletesBefore(b, a, now)).toBe(false)
  })

  it('treats times within the same power-of-two age bucket as equal and breaks the tie by uid (LogarithmicScaleDown)', async () => {
    // 100 s and 101 s ago share a bucket, so neither the newer ready time nor the restarts of `newer` decide.
    const newer = { pod: agedPod('b', { readySince: T0 - 100_000, restarts: 9 }), rank: 0 }
    const older = { pod: agedPod('a', { readySince: T0 - 101_000, restarts: 0 }), rank: 0 }
    expect(deletesBefore(older, newer, now)).toBe(true)
    expect(deletesBefore(newer, older, now)).toBe(false)
  })

  it('picks the worst pods first from a mixed set', async () => {
    const pods = [
      agedPod('old-ready', { readySince: T0 - 9 * hour, creationTimestamp: T0 - 9 * hour }),
      agedPod('unscheduled'),
      agedPod('new-ready', { readySince: T0 - 60_000, creationTimestamp: T0 - 120_000 }),
      agedPod('crashing', { phase: 'Running', notReady: true, restarts: 7 }),
      agedPod('pending-bound', { nodeName: 'n1', phase: 'Pending' }),
    ]
    expect(podsToDelete(pods, [], 4, now).map((p) => p.metadata.name)).toEqual([
      'unscheduled',
      'pending-bound',
      'crashing',
      'new-ready',
    ])
  })

  it('returns every pod, unranked, when all of them go', async () => {
    const pods = [agedPod('a', { readySince: T0 - hour }), agedPod('b')]
    expect(podsToDelete(pods, [], 5, now).map((p) => p.metadata.name)).toEqual(['a', 'b'])
  })

  it('ranks pods by the active related pods sharing their node', async () => {
    const pods = [agedPod('a', { nodeName: 'n1' }), agedPod('b', { nodeName: 'n2' })]
    const related = [
      agedPod('x', { nodeName: 'n1' }),
      agedPod('y', { nodeName: 'n1' }),
      agedPod('z', { nodeName: 'n2', phase: 'Succeeded' }),
    ]
    expect(rankByRelatedPodsOnSameNode(pods, related).map((r) => r.rank)).toEqual([2, 0])
  })

  it('finds related pods through every ReplicaSet of the same controller', async () => {
    const d = newDeployment('web')
    const v1 = newReplicaSet('web-v1', { owner: d, selector: { app: 'web', v: '1' } })
    const v2 = newReplicaSet('web-v2', { owner: d, selector: { app: 'web', v: '2' } })
    const lone = newReplicaSet('lone', { selector: { app: 'lone' } })
    const cache = new MemoryCache(
      d,
      v1,
      v2,
      lone,
      newPod('p1', { owner: v1 }),
      newPod('p2', { owner: v2 }),
      newPod('p3', { owner: lone }),
    )
    expect(
      relatedPods(toReplicaSet(v1), cache)
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['p1', 'p2'])
    expect(relatedPods(toReplicaSet(lone), cache)).toEqual([])
  })
})
