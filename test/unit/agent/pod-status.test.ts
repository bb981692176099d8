import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import {
  canonical,
  computePodStatus,
  statusPatch,
  type PodStatus,
} from '../../../src/agent/pod-status'
import type { ContainerState } from '../../../src/agent/runtime/types'
import { formatTime } from '../../../src/apimachinery/meta-time'
import type { Json } from '../../../src/apimachinery/json-value'
import { newPod } from '../../helpers'

const NOW = Date.parse('2026-03-01T10:00:00Z')
const EARLIER = '2026-03-01T09:00:00Z'

/** Pod `p` on node n1, its containers named (each running image `img-<name>`). */
function nodePod(
  opts: {
    restartPolicy?: string
    containers?: string[]
    init?: string[]
    status?: PodStatus
    gates?: string[]
  } = {},
): KubeObject {
  const image = (name: string) => ({ name, image: `img-${name}` })
  const spec: Json = { restartPolicy: opts.restartPolicy ?? 'Always' }
  if (opts.init) spec.initContainers = opts.init.map(image)
  if (opts.gates) spec.readinessGates = opts.gates.map((conditionType) => ({ conditionType }))
  return newPod('p', {
    uid: 'u1',
    nodeName: 'n1',
    containers: (opts.containers ?? ['app']).map(image),
    spec,
    status: (opts.status as Json | undefined) ?? { phase: 'Pending', qosClass: 'BestEffort' },
  })
}

const run = (name: string, ready = true, extra: Partial<ContainerState> = {}): ContainerState => ({
  name,
  state: { running: { startedAt: EARLIER } },
  ready,
  restartCount: 0,
  started: true,
  containerID: `process://${name}`,
  ...extra,
})
const exit = (name: string, code: number, extra: Partial<ContainerState> = {}): ContainerState => ({
  name,
  state: {
    terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', finishedAt: EARLIER },
  },
  ready: false,
  restartCount: 0,
  containerID: `process://${name}`,
  ...extra,
})
const wait = (
  name: string,
  reason: string,
  extra: Partial<ContainerState> = {},
): ContainerState => ({
  name,
  state: { waiting: { reason } },
  ready: false,
  restartCount: 0,
  ...extra,
})
const crashLoop = (name: string, lastExit: number, restarts: number): ContainerState =>
  wait(name, 'CrashLoopBackOff', {
    lastState: { terminated: { exitCode: lastExit, reason: 'Error', finishedAt: EARLIER } },
    restartCount: restarts,
  })

describe('computePodStatus: phase', () => {
  const cases: {
    name: string
    pod: KubeObject
    containers: ContainerState[] | undefined
    terminated?: boolean
    phase: string
  }[] = [
    { name: 'not yet in the runtime', pod: nodePod(), containers: undefined, phase: 'Pending' },
    {
      name: 'creating',
      pod: nodePod(),
      containers: [wait('app', 'ContainerCreating')],
      phase: 'Pending',
    },
    {
      name: 'config error',
      pod: nodePod(),
      containers: [wait('app', 'CreateContainerConfigError')],
      phase: 'Pending',
    },
    { name: 'running', pod: nodePod(), containers: [run('app')], phase: 'Running' },
    {
      name: 'one running, one waiting',
      pod: nodePod({ containers: ['a', 'b'] }),
      containers: [run('a'), wait('b', 'ContainerCreating')],
      phase: 'Pending',
    },
    {
      name: 'crash loop counts as started (Always)',
      pod: nodePod(),
      containers: [crashLoop('app', 1, 3)],
      phase: 'Running',
    },
    {
      name: 'Never, exit 0',
      pod: nodePod({ restartPolicy: 'Never' }),
      containers: [exit('app', 0)],
      phase: 'Succeeded',
    },
    {
      name: 'Never, exit 3',
      pod: nodePod({ restartPolicy: 'Never' }),
      containers: [exit('app', 3)],
      phase: 'Failed',
    },
    {
      name: 'Never, one of two still running',
      pod: nodePod({ restartPolicy: 'Never', containers: ['a', 'b'] }),
      containers: [exit('a', 1), run('b')],
      phase: 'Running',
    },
    {
      name: 'Never, both done, one failed',
      pod: nodePod({ restartPolicy: 'Never', containers: ['a', 'b'] }),
      containers: [exit('a', 0), exit('b', 2)],
      phase: 'Failed',
    },
    {
      name: 'OnFailure, exit 0',
      pod: nodePod({ restartPolicy: 'OnFailure' }),
      containers: [exit('app', 0)],
      phase: 'Succeeded',
    },
    {
      name: 'OnFailure, crash looping',
      pod: nodePod({ restartPolicy: 'OnFailure' }),
      containers: [crashLoop('app', 1, 1)],
      phase: 'Running',
    },
    {
      name: 'Always, exited 0 (about to restart)',
      pod: nodePod(),
      containers: [exit('app', 0)],
      phase: 'Running',
    },
    {
      name: 'init running',
      pod: nodePod({ init: ['i'] }),
      containers: [run('i', false, { init: true }), wait('app', 'PodInitializing')],
      phase: 'Pending',
    },
    {
      name: 'init failed under Never',
      pod: nodePod({ init: ['i'], restartPolicy: 'Never' }),
      containers: [exit('i', 1, { init: true })],
      phase: 'Failed',
    },
    {
      name: 'init failed under Always: retried',
      pod: nodePod({ init: ['i'] }),
      containers: [exit('i', 1, { init: true })],
      phase: 'Pending',
    },
    {
      name: 'init done, app running',
      pod: nodePod({ init: ['i'] }),
      containers: [exit('i', 0, { init: true }), run('app')],
      phase: 'Running',
    },
    {
      name: 'deleted and stopped after exit 0',
      pod: nodePod(),
      containers: [exit('app', 0)],
      terminated: true,
      phase: 'Succeeded',
    },
    {
      name: 'deleted and stopped by SIGTERM',
      pod: nodePod(),
      containers: [exit('app', 143)],
      terminated: true,
      phase: 'Failed',
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const status = computePodStatus({
        pod: c.pod,
        containers: c.containers,
        hostIP: '10.0.0.1',
        podIP: '10.0.0.1',
        terminated: c.terminated,
        now: NOW,
      })
      expect(status.phase).toBe(c.phase)
    })
  }
})

describe('computePodStatus: conditions', () => {
  const conditions = (status: PodStatus) =>
    Object.fromEntries(
      (status.conditions ?? []).map((c) => [
        c.type,
        `${c.status}${c.reason ? `/${c.reason}` : ''}`,
      ]),
    )

  it('all True for a ready running pod, in kubelet order', () => {
    const status = computePodStatus({
      pod: nodePod(),
      containers: [run('app')],
      hostIP: 'h',
      now: NOW,
    })
    expect(status.conditions!.map((c) => c.type)).toEqual([
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ])
    expect(conditions(status)).toEqual({
      PodReadyToStartContainers: 'True',
      Initialized: 'True',
      Ready: 'True',
      ContainersReady: 'True',
      PodScheduled: 'True',
    })
  })

  const cases: {
    name: string
    pod: KubeObject
    containers: ContainerState[] | undefined
    want: Record<string, string>
  }[] = [
    {
      name: 'running but not ready',
      pod: nodePod({ containers: ['a', 'b'] }),
      containers: [run('a', false), run('b', true)],
      want: {
        PodReadyToStartContainers: 'True',
        Initialized: 'True',
        Ready: 'False/ContainersNotReady',
        ContainersReady: 'False/ContainersNotReady',
        PodScheduled: 'True',
      },
    },
    {
      name: 'initializing',
      pod: nodePod({ init: ['i'] }),
      containers: [run('i', false, { init: true })],
      want: {
        PodReadyToStartContainers: 'True',
        Initialized: 'False/ContainersNotInitialized',
        Ready: 'False/ContainersNotReady',
        ContainersReady: 'False/ContainersNotReady',
        PodScheduled: 'True',
      },
    },
    {
      name: 'completed',
      pod: nodePod({ restartPolicy: 'Never' }),
      containers: [exit('app', 0)],
      want: {
        PodReadyToStartContainers: 'True',
        Initialized: 'True',
        Ready: 'False/PodCompleted',
        ContainersReady: 'False/PodCompleted',
        PodScheduled: 'True',
      },
    },
    {
      name: 'readiness gate not met',
      pod: nodePod({ gates: ['example.com/gate'] }),
      containers: [run('app')],
      want: {
        PodReadyToStartContainers: 'True',
        Initialized: 'True',
        Ready: 'False/ReadinessGatesNotReady',
        ContainersReady: 'True',
        PodScheduled: 'True',
      },
    },
    {
      name: 'not in the runtime yet',
      pod: nodePod(),
      containers: undefined,
      want: {
        PodReadyToStartContainers: 'False',
        Initialized: 'True',
        Ready: 'False/ContainersNotReady',
        ContainersReady: 'False/ContainersNotReady',
        PodScheduled: 'True',
      },
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(
        conditions(
          computePodStatus({ pod: c.pod, containers: c.containers, hostIP: 'h', now: NOW }),
        ),
      ).toEqual(c.want)
    })
  }

  it('names the unready and unfinished containers in the messages', () => {
    const status = computePodStatus({
      pod: nodePod({ containers: ['a', 'b', 'c'], init: ['i'] }),
      containers: [exit('i', 1, { init: true })],
      hostIP: 'h',
      now: NOW,
    })
    const byType = Object.fromEntries(status.conditions!.map((c) => [c.type, c.message]))
    expect(byType.Initialized).toBe('containers with incomplete status: [i]')
    expect(byType.ContainersReady).toBe('containers with unready status: [a b c]')
  })

  it('keeps transition times while a condition holds and moves them when it flips', () => {
    const first = computePodStatus({
      pod: nodePod(),
      containers: [run('app', false)],
      hostIP: 'h',
      now: NOW,
    })
    const later = NOW + 60_000
    const same = computePodStatus({
      pod: nodePod({ status: first }),
      containers: [run('app', false)],
      hostIP: 'h',
      now: later,
    })
    expect(same.conditions).toEqual(first.conditions)
    const flipped = computePodStatus({
      pod: nodePod({ status: first }),
      containers: [run('app', true)],
      hostIP: 'h',
      now: later,
    })
    const ready = flipped.conditions!.find((c) => c.type === 'Ready')!
    expect(ready.lastTransitionTime).toBe(formatTime(later))
    expect(flipped.conditions!.find((c) => c.type === 'Initialized')!.lastTransitionTime).toBe(
      formatTime(NOW),
    )
  })

  it('keeps conditions other components own, and an existing PodScheduled as it is', () => {
    const scheduled = { type: 'PodScheduled', status: 'True' as const, lastTransitionTime: EARLIER }
    const foreign = {
      type: 'example.com/gate',
      status: 'True' as const,
      lastTransitionTime: EARLIER,
    }
    const status = computePodStatus({
      pod: nodePod({
        gates: ['example.com/gate'],
        status: { phase: 'Pending', conditions: [scheduled, foreign] },
      }),
      containers: [run('app')],
      hostIP: 'h',
      now: NOW,
    })
    expect(status.conditions).toContainEqual(scheduled)
    expect(status.conditions).toContainEqual(foreign)
    expect(status.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True')
  })
})

describe('computePodStatus: container statuses', () => {
  it('reports state, last state, restarts, readiness and ids per container in spec order', () => {
    const status = computePodStatus({
      pod: nodePod({ containers: ['a', 'b'] }),
      containers: [crashLoop('b', 2, 4), run('a')],
      hostIP: '10.0.0.1',
      podIP: '10.244.0.9',
      now: NOW,
    })
    expect(status.containerStatuses).toEqual([
      {
        name: 'a',
        state: { running: { startedAt: EARLIER } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'img-a',
        imageID: 'process://img-a',
        containerID: 'process://a',
        started: true,
      },
      {
        name: 'b',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { exitCode: 2, reason: 'Error', finishedAt: EARLIER } },
        ready: false,
        restartCount: 4,
        image: 'img-b',
        imageID: '',
        started: false,
      },
    ])
    expect(status.hostIP).toBe('10.0.0.1')
    expect(status.hostIPs).toEqual([{ ip: '10.0.0.1' }])
    expect(status.podIP).toBe('10.244.0.9')
    expect(status.podIPs).toEqual([{ ip: '10.244.0.9' }])
  })

  it('reports containers the runtime does not know yet as waiting', () => {
    const status = computePodStatus({
      pod: nodePod({ init: ['i'] }),
      containers: undefined,
      hostIP: 'h',
      now: NOW,
    })
    expect(status.initContainerStatuses![0]!.state).toEqual({
      waiting: { reason: 'PodInitializing' },
    })
    expect(status.containerStatuses![0]!.state).toEqual({ waiting: { reason: 'PodInitializing' } })
    expect(status.podIP).toBeUndefined()
  })

  it('reports ephemeral containers apart, never ready, and counting for neither phase nor readiness', () => {
    const p = nodePod()
    ;(p.spec as Record<string, unknown>).ephemeralContainers = [
      { name: 'dbg', image: 'busybox' },
      { name: 'later', image: 'busybox' },
    ]
    const status = computePodStatus({
      pod: p,
      containers: [run('app'), exit('dbg', 3, { ephemeral: true })],
      hostIP: 'h',
      now: NOW,
    })
    expect(status.phase).toBe('Running')
    expect(status.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True')
    expect(status.containerStatuses!.map((c) => c.name)).toEqual(['app'])
    expect(status.ephemeralContainerStatuses!.map((c) => [c.name, c.state, c.ready])).toEqual([
      ['dbg', { terminated: { exitCode: 3, reason: 'Error', finishedAt: EARLIER } }, false],
      ['later', { waiting: { reason: 'ContainerCreating' } }, false],
    ])
    // A running ephemeral container is not ready either.
    const running = computePodStatus({
      pod: p,
      containers: [run('app'), run('dbg', true, { ephemeral: true })],
      hostIP: 'h',
      now: NOW,
    })
    expect(running.ephemeralContainerStatuses![0]).toMatchObject({
      name: 'dbg',
      ready: false,
      started: true,
    })
  })

  it('keeps startTime once set and leaves qosClass to the server', () => {
    const first = computePodStatus({
      pod: nodePod(),
      containers: [run('app')],
      hostIP: 'h',
      now: NOW,
    })
    expect(first.startTime).toBe(formatTime(NOW))
    expect(first.qosClass).toBeUndefined()
    const again = computePodStatus({
      pod: nodePod({ status: { ...first, qosClass: 'BestEffort' } }),
      containers: [run('app')],
      hostIP: 'h',
      now: NOW + 5_000,
    })
    expect(again.startTime).toBe(formatTime(NOW))
  })
})

describe('statusPatch', () => {
  it('is undefined when nothing changed, whatever the key order', () => {
    const next = computePodStatus({
      pod: nodePod(),
      containers: [run('app')],
      hostIP: 'h',
      now: NOW,
    })
    const stored = JSON.parse(canonical({ ...next, qosClass: 'BestEffort' })) as PodStatus
    expect(statusPatch(stored, next)).toBeUndefined()
  })

  it('carries only the top-level fields that changed', () => {
    const before = computePodStatus({
      pod: nodePod(),
      containers: [run('app', false)],
      hostIP: 'h',
      now: NOW,
    })
    const after = computePodStatus({
      pod: nodePod({ status: before }),
      containers: [run('app', true)],
      hostIP: 'h',
      now: NOW + 1000,
    })
    expect(Object.keys(statusPatch(before, after)!).sort()).toEqual([
      'conditions',
      'containerStatuses',
    ])
  })
})
