import { afterEach, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  EXIT_AFTER_ANNOTATION,
  EXIT_CODE_ANNOTATION,
  SimRuntime,
} from '../../../../src/agent/runtime/sim'
import { nextFreePodIP, NodePodIPs, PodIPAllocator } from '../../../../src/agent/runtime/pod-ips'
import type { ContainerState } from '../../../../src/agent/runtime/types'
import type { Json } from '../../../../src/apimachinery/json-value'
import { newPod, waitFor } from '../../../helpers'

const runtimes: SimRuntime[] = []
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.shutdown()))
})

let seq = 0
function runtime(podCIDR = '10.244.9.0/24'): SimRuntime {
  const r = new SimRuntime({
    nodeName: 'sim-0',
    startDelayMs: 50,
    backoff: { baseMs: 100, maxMs: 400, resetAfterMs: 600_000 },
  })
  r.setPodCIDR(podCIDR)
  runtimes.push(r)
  return r
}

/** A pod of its own name and uid for each test, with one container `main` (and `init`, if asked). */
function simPod(
  opts: {
    annotations?: Record<string, string>
    restartPolicy?: string
    init?: boolean
    status?: Json
  } = {},
): KubeObject {
  const spec: Json = { restartPolicy: opts.restartPolicy ?? 'Always' }
  if (opts.init) spec.initContainers = [{ name: 'init', image: 'busybox' }]
  return newPod(`s${++seq}`, {
    uid: `sim-uid-${seq}`,
    annotations: opts.annotations,
    containers: [{ name: 'main', image: 'nginx' }],
    spec,
    status: opts.status ?? { phase: 'Pending' },
  })
}

const main = (r: SimRuntime, p: KubeObject): ContainerState =>
  r.status(p.metadata.uid!)!.find((c) => c.name === 'main')!

describe('SimRuntime', () => {
  it('creates, then runs ready containers after the start delay', async () => {
    const r = runtime()
    const p = simPod()
    await r.sync(p, {})
    expect(main(r, p).state).toEqual({ waiting: { reason: 'ContainerCreating' } })
    const s = await waitFor(() => ('running' in main(r, p).state ? main(r, p) : undefined), {
      what: 'running',
      timeoutMs: 3_000,
    })
    expect(s).toMatchObject({ ready: true, started: true, restartCount: 0 })
    expect(s.containerID).toMatch(/^sim:\/\//)
  })

  it('marks an ephemeral container added to a running pod running, once, not ready, and never restarts it', async () => {
    const r = runtime()
    const p = simPod({
      restartPolicy: 'Always',
      annotations: { [EXIT_AFTER_ANNOTATION]: '0.2', [EXIT_CODE_ANNOTATION]: '1' },
    })
    await r.sync(p, {})
    await waitFor(() => 'running' in main(r, p).state, { what: 'running', timeoutMs: 3_000 })
    const debugged = {
      ...p,
      spec: { ...(p.spec as object), ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] },
    }
    await r.sync(debugged, {})
    const dbg = () => r.status(p.metadata.uid!)!.find((c) => c.name === 'dbg')!
    expect(dbg()).toMatchObject({
      ephemeral: true,
      state: { waiting: { reason: 'ContainerCreating' } },
    })
    await waitFor(() => 'running' in dbg().state, { what: 'dbg running', timeoutMs: 3_000 })
    // The app container exits and restarts by the annotation; the ephemeral one runs on, untouched.
    await waitFor(() => main(r, p).restartCount >= 1, { what: 'main restarted', timeoutMs: 3_000 })
    await r.sync(debugged, {})
    expect(dbg()).toMatchObject({ ready: false, restartCount: 0, state: { running: {} } })
  })

  it('a new agent keeps a running ephemeral container as its status says, and does not start a finished one again', async () => {
    const r = runtime()
    const running = { running: { startedAt: '2026-03-01T10:00:00Z' } }
    const p = simPod({
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'main', state: running, restartCount: 0, containerID: 'sim://main' },
        ],
        ephemeralContainerStatuses: [
          { name: 'dbg', state: running, restartCount: 0, containerID: 'sim://dbg' },
          {
            name: 'done',
            state: {
              terminated: { exitCode: 0, reason: 'Completed', finishedAt: '2026-03-01T10:00:01Z' },
            },
            restartCount: 0,
            containerID: 'sim://done',
          },
        ],
      },
    })
    ;(p.spec as Record<string, unknown>).ephemeralContainers = [
      { name: 'dbg', image: 'busybox' },
      { name: 'done', image: 'busybox' },
    ]
    await r.sync(p, {})
    await new Promise((res) => setTimeout(res, 120))
    const byName = (n: string) => r.status(p.metadata.uid!)!.find((c) => c.name === n)!
    expect(byName('dbg')).toMatchObject({
      ephemeral: true,
      containerID: 'sim://dbg',
      ready: false,
      state: running,
    })
    expect(byName('done')).toMatchObject({
      ephemeral: true,
      containerID: 'sim://done',
      state: { terminated: { reason: 'Completed' } },
    })
  })

  it('completes init containers before the app starts', async () => {
    const r = runtime()
    const p = simPod({ init: true })
    await r.sync(p, {})
    await waitFor(() => 'running' in main(r, p).state, { what: 'running', timeoutMs: 3_000 })
    expect(r.status(p.metadata.uid!)!.find((c) => c.init)!.state).toMatchObject({
      terminated: { exitCode: 0, reason: 'Completed' },
    })
  })

  const exits: {
    name: string
    restartPolicy: string
    code: string
    want: (s: ContainerState) => boolean
  }[] = [
    {
      name: 'exit 0 under Never: Completed',
      restartPolicy: 'Never',
      code: '0',
      want: (s) => 'terminated' in s.state && s.state.terminated.reason === 'Completed',
    },
    {
      name: 'exit 7 under Never: Error with the code',
      restartPolicy: 'Never',
      code: '7',
      want: (s) => 'terminated' in s.state && s.state.terminated.exitCode === 7,
    },
    {
      name: 'exit 1 under Always: restarted',
      restartPolicy: 'Always',
      code: '1',
      want: (s) => s.restartCount >= 1,
    },
  ]
  for (const c of exits) {
    it(`scripts exits by annotation: ${c.name}`, async () => {
      const r = runtime()
      const p = simPod({
        restartPolicy: c.restartPolicy,
        annotations: { [EXIT_AFTER_ANNOTATION]: '0.1', [EXIT_CODE_ANNOTATION]: c.code },
      })
      await r.sync(p, {})
      await waitFor(() => c.want(main(r, p)), { what: c.name, timeoutMs: 3_000 })
    })
  }

  it("gives each pod its own address of the node's pod CIDR and frees it when forgotten", async () => {
    const a = runtime('10.244.3.0/24')
    const p1 = simPod()
    const p2 = simPod()
    const ip1 = a.podIP(p1)
    const ip2 = a.podIP(p2)
    expect(ip1).toBe('10.244.3.2')
    expect(ip2).toBe('10.244.3.3')
    expect(a.podIP(p1)).toBe(ip1)
    a.forget(p1.metadata.uid!)
    const p3 = simPod({ status: { phase: 'Running', podIP: ip1 } })
    expect(a.podIP(p3)).toBe(ip1)
    // An address from outside the node's block is not kept.
    expect(a.podIP(simPod({ status: { phase: 'Running', podIP: '10.244.4.7' } }))).toMatch(
      /^10\.244\.3\.\d+$/,
    )
  })

  it('keeps the simulated nodes of one agent each in its own pod CIDR', () => {
    const ips = new PodIPAllocator()
    const a = new SimRuntime({ nodeName: 'sim-0', ips })
    const b = new SimRuntime({ nodeName: 'sim-1', ips })
    runtimes.push(a, b)
    a.setPodCIDR('10.244.0.0/24')
    b.setPodCIDR('10.244.1.0/24')
    expect([a.podIP(simPod()), b.podIP(simPod()), a.podIP(simPod())]).toEqual([
      '10.244.0.2',
      '10.244.1.2',
      '10.244.0.3',
    ])
  })

  it('gives no pod an address before the node has a pod CIDR', () => {
    const r = new SimRuntime({ nodeName: 'sim-0' })
    runtimes.push(r)
    expect(() => r.podIP(simPod())).toThrow(/no pod CIDR yet/)
  })

  it('adopts containers already running after an agent restart', async () => {
    const r = runtime()
    const p = simPod({
      status: {
        phase: 'Running',
        podIP: '10.244.9.9',
        containerStatuses: [
          {
            name: 'main',
            state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
            lastState: {},
            restartCount: 4,
            ready: true,
            containerID: 'sim://old',
          },
        ],
      },
    })
    await r.sync(p, {})
    expect(main(r, p)).toMatchObject({
      state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
      restartCount: 4,
      ready: true,
      containerID: 'sim://old',
    })
    expect(r.podIP(p)).toBe('10.244.9.9')
  })

  it('serves synthetic logs and succeeds every exec', async () => {
    const r = runtime()
    const p = simPod()
    await r.sync(p, {})
    await waitFor(() => 'running' in main(r, p).state, { what: 'running', timeoutMs: 3_000 })
    let text = ''
    for await (const c of r.logs(p.metadata.uid!, { container: 'main', tailLines: 1 }))
      text += Buffer.from(c).toString()
    expect(text).toBe('no process runs here: this node is simulated\n')
    expect(
      await r.exec(p.metadata.uid!, 'main', ['anything'], { stdout: () => {}, stderr: () => {} }),
    ).toBe(0)
  })

  it('stops at once and never restarts a stopped pod', async () => {
    const r = runtime()
    const p = simPod()
    await r.sync(p, {})
    await waitFor(() => 'running' in main(r, p).state, { what: 'running', timeoutMs: 3_000 })
    await r.stop(p.metadata.uid!)
    expect(main(r, p).state).toMatchObject({ terminated: { exitCode: 0 } })
    await new Promise((res) => setTimeout(res, 200))
    expect(main(r, p).restartCount).toBe(0)
  })
})

describe('pod IPs of a node', () => {
  it('skips the network, gateway and broadcast addresses and wraps from where it was', () => {
    expect(nextFreePodIP('10.244.1.0/24', new Set())).toBe('10.244.1.2')
    expect(nextFreePodIP('10.244.1.0/24', new Set(), 252)).toBe('10.244.1.254')
    expect(nextFreePodIP('10.244.1.0/24', new Set(), 253)).toBe('10.244.1.2')
    expect(nextFreePodIP('10.244.1.0/30', new Set(['10.244.1.2']))).toBeUndefined()
    expect(nextFreePodIP('not-a-cidr', new Set())).toBeUndefined()
  })

  it('hands out every address of the block once, then reports it full', () => {
    const ips = new NodePodIPs()
    ips.setPodCIDR('10.1.0.0/29')
    const got = ['a', 'b', 'c', 'd', 'e'].map((uid) => ips.allocate(uid))
    expect(got).toEqual(['10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6'])
    expect(() => ips.allocate('f')).toThrow(/10\.1\.0\.0\/29 is full/)
    ips.release('c')
    expect(ips.allocate('f')).toBe('10.1.0.4')
  })
})
