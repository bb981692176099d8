import { describe, expect, it } from 'vitest'
import {
  planEviction,
  type EvictionPlan,
} from '../../../../src/controllers/node-lifecycle/eviction'
import type { Taint, Toleration } from '../../../../src/controllers/node-lifecycle/taints'
import { newPod } from '../../../helpers'

const t = (iso: string) => Date.parse(iso)
const tainted = '2025-06-01T12:00:00Z'
const unreachable: Taint = {
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  timeAdded: tainted,
}
const notReady: Taint = {
  key: 'node.kubernetes.io/not-ready',
  effect: 'NoExecute',
  timeAdded: tainted,
}
const tolerate = (key: string | undefined, seconds?: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
})

describe('planEviction', () => {
  it.each<[string, Taint[], Toleration[] | undefined, number, EvictionPlan]>([
    ['no NoExecute taint', [], undefined, t(tainted), { kind: 'keep' }],
    ['no toleration', [unreachable], undefined, t(tainted), { kind: 'evict' }],
    [
      'a toleration for another taint',
      [unreachable],
      [tolerate('node.kubernetes.io/not-ready')],
      t(tainted),
      { kind: 'evict' },
    ],
    [
      'tolerated forever',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable')],
      t(tainted) + 86_400_000,
      { kind: 'keep' },
    ],
    [
      'tolerated for 2 s, just tainted',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable', 2)],
      t(tainted),
      { kind: 'wait', at: t(tainted) + 2000 },
    ],
    [
      'tolerated for 2 s, 1.5 s later',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable', 2)],
      t(tainted) + 1500,
      { kind: 'wait', at: t(tainted) + 2000 },
    ],
    [
      'tolerated for 2 s, 2 s later',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable', 2)],
      t(tainted) + 2000,
      { kind: 'evict' },
    ],
    [
      'tolerationSeconds 0 evicts at once',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable', 0)],
      t(tainted),
      { kind: 'evict' },
    ],
    [
      'negative tolerationSeconds evicts at once',
      [unreachable],
      [tolerate('node.kubernetes.io/unreachable', -5)],
      t(tainted),
      { kind: 'evict' },
    ],
    [
      'every taint must be tolerated',
      [unreachable, notReady],
      [tolerate('node.kubernetes.io/unreachable')],
      t(tainted),
      { kind: 'evict' },
    ],
    [
      'the earliest deadline wins',
      [unreachable, notReady],
      [
        tolerate('node.kubernetes.io/unreachable', 300),
        tolerate('node.kubernetes.io/not-ready', 60),
      ],
      t(tainted),
      { kind: 'wait', at: t(tainted) + 60_000 },
    ],
    [
      'a forever toleration does not extend a timed one',
      [unreachable, notReady],
      [tolerate('node.kubernetes.io/unreachable'), tolerate('node.kubernetes.io/not-ready', 60)],
      t(tainted),
      { kind: 'wait', at: t(tainted) + 60_000 },
    ],
    [
      'the first matching toleration is the one used',
      [unreachable],
      [tolerate(undefined), tolerate('node.kubernetes.io/unreachable', 5)],
      t(tainted) + 10_000,
      { kind: 'keep' },
    ],
    [
      'the default 300 s tolerations',
      [unreachable],
      [
        tolerate('node.kubernetes.io/not-ready', 300),
        tolerate('node.kubernetes.io/unreachable', 300),
      ],
      t(tainted) + 299_000,
      { kind: 'wait', at: t(tainted) + 300_000 },
    ],
  ])('%s', (_, taints, tolerations, now, want) => {
    expect(
      planEviction(
        newPod('p', { nodeName: 'n', tolerations, creationTimestamp: '2025-06-01T00:00:00Z' }),
        taints,
        now,
      ),
    ).toEqual(want)
  })

  it('counts from the pod’s arrival when it came to an already tainted node', () => {
    const arrived = '2025-06-01T12:10:00Z'
    const pod = newPod('p', {
      nodeName: 'n',
      tolerations: [tolerate('node.kubernetes.io/unreachable', 30)],
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: arrived }],
    })
    expect(planEviction(pod, [unreachable], t(arrived) + 1000)).toEqual({
      kind: 'wait',
      at: t(arrived) + 30_000,
    })
  })

  it('counts from the pod’s arrival when the taint has no timeAdded', () => {
    const pod = newPod('p', {
      nodeName: 'n',
      tolerations: [tolerate('k', 10)],
      creationTimestamp: tainted,
    })
    expect(planEviction(pod, [{ key: 'k', effect: 'NoExecute' }], t(tainted) + 10_000)).toEqual({
      kind: 'evict',
    })
  })
})
