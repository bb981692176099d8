import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import {
  admitPods,
  decidePod,
  deletionGrace,
  ORPHAN_GRACE_SECONDS,
  podRequests,
  syncPods,
  type PodDecisionInput,
  type RuntimePodView,
} from '../../../src/agent/sync-pods'
import { newPod } from '../../helpers'

/** A pod bound to node n1 (Pending unless told), with the requests and deletion the case names. */
function boundPod(
  name: string,
  opts: {
    phase?: string
    deleting?: number
    grace?: number
    created?: string
    cpu?: string
    memory?: string
  } = {},
): KubeObject {
  const requests: Record<string, string> = {}
  if (opts.cpu) requests.cpu = opts.cpu
  if (opts.memory) requests.memory = opts.memory
  const deleting =
    opts.deleting === undefined
      ? {}
      : { deletionTimestamp: '2026-01-01T00:01:00Z', deletionGracePeriodSeconds: opts.deleting }
  return newPod(name, {
    nodeName: 'n1',
    phase: opts.phase ?? 'Pending',
    creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
    requests,
    spec: { terminationGracePeriodSeconds: opts.grace ?? 30 },
    metadata: deleting,
  })
}

const running: RuntimePodView = { stopped: false }
const stopping = (grace: number): RuntimePodView => ({ stopped: false, stoppingGrace: grace })
const stopped: RuntimePodView = { stopped: true }

describe('decidePod', () => {
  const cases: { name: string; input: Omit<PodDecisionInput, 'uid'>; want: string[] }[] = [
    {
      name: 'new pod: start, then report',
      input: { pod: boundPod('a') },
      want: ['start', 'report'],
    },
    {
      name: 'new pod refused by admission: reject',
      input: { pod: boundPod('a'), admission: { ok: false, reason: 'OutOfpods', message: 'm' } },
      want: ['reject'],
    },
    {
      name: 'known pod: report only',
      input: { pod: boundPod('a', { phase: 'Running' }), runtime: running },
      want: ['report'],
    },
    {
      name: 'known pod waiting on config: start again',
      input: { pod: boundPod('a'), runtime: running, retry: true },
      want: ['start', 'report'],
    },
    {
      name: 'terminal pod never started: nothing',
      input: { pod: boundPod('a', { phase: 'Succeeded' }) },
      want: [],
    },
    {
      name: 'terminal pod still held: stop what is left',
      input: { pod: boundPod('a', { phase: 'Failed' }), runtime: running },
      want: ['stop'],
    },
    {
      name: 'terminal pod already stopping: nothing',
      input: { pod: boundPod('a', { phase: 'Failed' }), runtime: stopping(30) },
      want: [],
    },
    {
      name: 'terminal pod stopped: nothing (logs kept)',
      input: { pod: boundPod('a', { phase: 'Succeeded' }), runtime: stopped },
      want: [],
    },
    {
      name: 'deleting running pod: stop',
      input: { pod: boundPod('a', { phase: 'Running', deleting: 30 }), runtime: running },
      want: ['stop'],
    },
    {
      name: 'deleting pod mid-stop: wait',
      input: { pod: boundPod('a', { phase: 'Running', deleting: 30 }), runtime: stopping(30) },
      want: [],
    },
    {
      name: 'deleting pod with a shorter grace: stop again',
      input: { pod: boundPod('a', { phase: 'Running', deleting: 5 }), runtime: stopping(30) },
      want: ['stop'],
    },
    {
      name: 'deleting pod stopped: report, then delete',
      input: { pod: boundPod('a', { phase: 'Running', deleting: 30 }), runtime: stopped },
      want: ['report', 'delete'],
    },
    {
      name: 'deleting pod never started: delete',
      input: { pod: boundPod('a', { deleting: 30 }) },
      want: ['delete'],
    },
    {
      name: 'pod gone from the API, runtime running: remove',
      input: { pod: undefined, runtime: running },
      want: ['remove'],
    },
    {
      name: 'pod gone from the API, runtime stopped: remove',
      input: { pod: undefined, runtime: stopped },
      want: ['remove'],
    },
    { name: 'pod gone, runtime never had it: nothing', input: { pod: undefined }, want: [] },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(decidePod({ uid: 'uid-a', ...c.input }).map((a) => a.type)).toEqual(c.want)
    })
  }

  it('stops with the deletion grace period, and orphans with a short one', () => {
    const [stop] = decidePod({
      uid: 'uid-a',
      pod: boundPod('a', { phase: 'Running', deleting: 7 }),
      runtime: running,
    })
    expect(stop).toMatchObject({ type: 'stop', gracePeriodSeconds: 7 })
    const [removeRunning] = decidePod({ uid: 'uid-a', pod: undefined, runtime: running })
    expect(removeRunning).toEqual({
      type: 'remove',
      uid: 'uid-a',
      gracePeriodSeconds: ORPHAN_GRACE_SECONDS,
    })
    const [removeStopped] = decidePod({ uid: 'uid-a', pod: undefined, runtime: stopped })
    expect(removeStopped).toEqual({ type: 'remove', uid: 'uid-a', gracePeriodSeconds: 0 })
  })

  it('takes the grace period from the deletion, else from the pod spec', () => {
    expect(deletionGrace(boundPod('a', { deleting: 0 }))).toBe(0)
    expect(deletionGrace(boundPod('a', { deleting: 12 }))).toBe(12)
    expect(deletionGrace(boundPod('a', { grace: 45 }))).toBe(45)
  })
})

describe('syncPods', () => {
  it('acts on every pod and removes runtime pods the API no longer has', () => {
    const runtime = new Map<string, RuntimePodView>([
      ['uid-b', running],
      ['uid-gone', running],
    ])
    const actions = syncPods({
      pods: [boundPod('a'), boundPod('b', { phase: 'Running' })],
      runtime,
      capacity: { pods: '110' },
    })
    expect(actions.map((a) => `${a.type}:${'pod' in a ? a.pod.metadata.name : a.uid}`)).toEqual([
      'start:a',
      'report:a',
      'report:b',
      'remove:uid-gone',
    ])
  })

  it('retries pods waiting on configuration', () => {
    const runtime = new Map<string, RuntimePodView>([['uid-a', running]])
    const actions = syncPods({
      pods: [boundPod('a')],
      runtime,
      capacity: {},
      retry: new Set(['uid-a']),
    })
    expect(actions.map((a) => a.type)).toEqual(['start', 'report'])
  })
})

describe('admitPods', () => {
  const cases: {
    name: string
    pods: KubeObject[]
    held: string[]
    capacity: Record<string, string>
    want: Record<string, string>
  }[] = [
    {
      name: 'admits up to the pod capacity, oldest first',
      pods: [
        boundPod('late', { created: '2026-01-01T00:00:05Z' }),
        boundPod('early', { created: '2026-01-01T00:00:01Z' }),
        boundPod('mid', { created: '2026-01-01T00:00:03Z' }),
      ],
      held: [],
      capacity: { pods: '2' },
      want: { early: 'ok', mid: 'ok', late: 'OutOfpods' },
    },
    {
      name: 'pods the runtime holds count against capacity',
      pods: [boundPod('held', { phase: 'Running' }), boundPod('new')],
      held: ['uid-held'],
      capacity: { pods: '1' },
      want: { new: 'OutOfpods' },
    },
    {
      name: 'finished and deleting pods do not count',
      pods: [
        boundPod('done', { phase: 'Succeeded' }),
        boundPod('going', { phase: 'Running', deleting: 30 }),
        boundPod('new'),
      ],
      held: ['uid-done', 'uid-going'],
      capacity: { pods: '1' },
      want: { new: 'ok' },
    },
    {
      name: 'cpu requests are summed against allocatable cpu',
      pods: [
        boundPod('a', { cpu: '1500m', created: '2026-01-01T00:00:01Z' }),
        boundPod('b', { cpu: '1', created: '2026-01-01T00:00:02Z' }),
        boundPod('c', { cpu: '500m', created: '2026-01-01T00:00:03Z' }),
      ],
      held: [],
      capacity: { cpu: '2', pods: '110' },
      want: { a: 'ok', b: 'OutOfcpu', c: 'ok' },
    },
    {
      name: 'memory requests are summed against allocatable memory',
      pods: [
        boundPod('a', { memory: '1Gi', created: '2026-01-01T00:00:01Z' }),
        boundPod('b', { memory: '1500Mi', created: '2026-01-01T00:00:02Z' }),
      ],
      held: [],
      capacity: { memory: '2Gi', pods: '110' },
      want: { a: 'ok', b: 'OutOfmemory' },
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const result = admitPods(c.pods, new Set(c.held), c.capacity)
      const got: Record<string, string> = {}
      for (const p of c.pods) {
        const r = result.get(p.metadata.uid!)
        if (r) got[p.metadata.name!] = r.ok ? 'ok' : r.reason
      }
      expect(got).toEqual(c.want)
    })
  }

  it('explains a rejection as kubelet does', () => {
    const result = admitPods(
      [boundPod('a'), boundPod('b', { created: '2026-01-01T00:00:09Z' })],
      new Set(),
      { pods: '1' },
    )
    expect(result.get('uid-b')).toEqual({
      ok: false,
      reason: 'OutOfpods',
      message:
        "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1",
    })
  })

  it('takes the larger of the app containers sum and the largest init container', () => {
    const p = boundPod('a', { cpu: '200m' })
    ;(p.spec as { initContainers: unknown[] }).initContainers = [
      { name: 'i', image: 'x', resources: { requests: { cpu: '1', memory: '64Mi' } } },
    ]
    expect(podRequests(p)).toEqual({ cpu: 1000, memory: 64 * 2 ** 20 })
  })
})
