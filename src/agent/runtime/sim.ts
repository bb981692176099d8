/**
 * Simulated containers (as kwok does): no processes at all. A container is Running after a short
 * delay and Ready right after; pod annotations script exits; logs are a few synthetic lines; exec
 * succeeds with no output. Cheap enough for hundreds of nodes and thousands of pods in one process.
 */
import { addEphemeral } from './ephemeral'
import { randomBytes } from 'node:crypto'
import type { KubeObject } from '../../apimachinery/types'
import type { LogOptions } from '../../agent-protocol/log-options'
import { podContainers, type ContainerSpec } from '../container-env'
import { crashBackoffFromEnv, nextCrashDelay, type CrashBackoffConfig } from './backoff'
import { LogBuffer } from './log-buffer'
import { PodIPAllocator, type NodePodIPs } from './pod-ips'

export { PodIPAllocator }
import { crashLoopState, restartPolicyOf, shouldRestart } from './restart'
import {
  podRecord,
  reportContainer,
  type ContainerState,
  type ExecStreams,
  type ManagedRuntime,
} from './types'
import { formatTime } from '../../apimachinery/meta-time'
import {
  freshContainer,
  resumeContainer,
  type Container,
  type Pod,
  type PrevStatus,
  type State,
} from './sim-records'

export const EXIT_AFTER_ANNOTATION = 'sim.edgeplane.dev/exit-after-seconds'
export const EXIT_CODE_ANNOTATION = 'sim.edgeplane.dev/exit-code'
export const DEFAULT_SIM_START_DELAY_MS = 200
const SIM_LOG_LIMIT_BYTES = 16 * 1024

export interface SimRuntimeOptions {
  nodeName: string
  startDelayMs?: number
  backoff?: CrashBackoffConfig
  /** the agent's pod IPs (this node takes those of its own pod CIDR) */
  ips?: PodIPAllocator
}

export class SimRuntime implements ManagedRuntime {
  private readonly pods = new Map<string, Pod>()
  private readonly listeners: ((uid: string) => void)[] = []
  private readonly startDelayMs: number
  private readonly backoff: CrashBackoffConfig
  /** pod IPs out of the node's spec.podCIDR */
  private readonly ips: NodePodIPs
  private closed = false

  constructor(private readonly opts: SimRuntimeOptions) {
    this.startDelayMs = opts.startDelayMs ?? DEFAULT_SIM_START_DELAY_MS
    this.backoff = opts.backoff ?? crashBackoffFromEnv()
    this.ips = (opts.ips ?? new PodIPAllocator()).of(opts.nodeName)
  }

  onChange(listener: (podUid: string) => void): void {
    this.listeners.push(listener)
  }

  private changed(uid: string): void {
    for (const l of this.listeners) l(uid)
  }

  setPodCIDR(podCIDR: string): void {
    this.ips.setPodCIDR(podCIDR)
  }

  podIP(pod: KubeObject): string {
    const current = (pod.status as { podIP?: string } | undefined)?.podIP
    return this.ips.allocate(pod.metadata.uid ?? '', current)
  }

  podUids(): string[] {
    return [...this.pods.keys()]
  }

  status(podUid: string): ContainerState[] | undefined {
    const rec = this.pods.get(podUid)
    if (!rec) return undefined
    return rec.containers.map((c) => reportContainer(c, 'running' in c.state))
  }

  async sync(
    pod: KubeObject,
    _env: Record<string, Record<string, string>>,
    configErrors: Record<string, string> = {},
  ): Promise<void> {
    if (this.closed) return
    const rec = podRecord(this.pods, pod, (p) => this.adopt(p))
    if (rec.stopped) return
    addEphemeral(rec.containers, pod, (spec) => {
      const c: Container = { ...freshContainer(spec.name, false), ephemeral: true }
      const prev = (
        pod.status as { ephemeralContainerStatuses?: PrevStatus[] } | undefined
      )?.ephemeralContainerStatuses?.find((s) => s.name === spec.name)
      if (prev) this.resume(rec, c, prev)
      return c
    })
    for (const c of rec.containers) {
      if (c.timer || c.finished || c.startedAtMs !== undefined) continue
      c.configError = configErrors[c.name]
    }
    this.advance(rec)
    this.changed(pod.metadata.uid ?? '')
  }

  private adopt(pod: KubeObject): Pod {
    const status = (pod.status ?? {}) as {
      containerStatuses?: PrevStatus[]
      initContainerStatuses?: PrevStatus[]
    }
    const initNames = new Set(
      ((pod.spec as { initContainers?: ContainerSpec[] } | undefined)?.initContainers ?? []).map(
        (c) => c.name,
      ),
    )
    const rec: Pod = { uid: pod.metadata.uid ?? '', pod, containers: [], stopped: false }
    rec.containers = podContainers(pod).map((spec): Container => {
      const init = initNames.has(spec.name)
      const c = freshContainer(spec.name, init)
      // A simulated container survives an agent restart: it keeps running as the status says.
      const prev = (init ? status.initContainerStatuses : status.containerStatuses)?.find(
        (s) => s.name === spec.name,
      )
      if (prev) this.resume(rec, c, prev)
      return c
    })
    return rec
  }

  /** Picks up a container's state from the pod's status after an agent restart. */
  private resume(rec: Pod, c: Container, prev: PrevStatus): void {
    if (!resumeContainer(c, prev)) return
    c.logs = this.newLogs(rec, c)
    if (!c.ephemeral) this.scheduleExit(rec, c)
  }

  private advance(rec: Pod): void {
    if (rec.stopped || this.closed) return
    // An ephemeral container is marked running once, and stays so.
    for (const c of rec.containers.filter((x) => x.ephemeral && !x.everStarted && !x.timer))
      this.create(rec, c)
    for (const c of rec.containers.filter((x) => x.init)) {
      const t = 'terminated' in c.state ? c.state.terminated : undefined
      if (t && t.exitCode === 0) continue
      if (c.timer || c.startedAtMs !== undefined || c.finished) return
      if (c.configError) {
        c.state = { waiting: { reason: 'CreateContainerConfigError', message: c.configError } }
        return
      }
      this.create(rec, c)
      return
    }
    for (const c of rec.containers.filter((x) => !x.init && !x.ephemeral)) {
      if (c.timer || c.startedAtMs !== undefined || c.finished) continue
      if (c.configError) {
        c.state = { waiting: { reason: 'CreateContainerConfigError', message: c.configError } }
        continue
      }
      this.create(rec, c)
    }
  }

  /** ContainerCreating for the start delay, then Running (and Ready), or done at once for an init container. */
  private create(rec: Pod, c: Container): void {
    c.state = { waiting: { reason: c.init ? 'PodInitializing' : 'ContainerCreating' } }
    c.timer = setTimeout(() => {
      c.timer = undefined
      if (rec.stopped || this.closed) return
      this.run(rec, c)
    }, this.startDelayMs)
  }

  private run(rec: Pod, c: Container): void {
    const now = Date.now()
    if (c.everStarted) c.restartCount++
    c.everStarted = true
    c.containerID = `sim://${randomBytes(16).toString('hex')}`
    c.startedAtMs = now
    c.state = { running: { startedAt: formatTime(now) } }
    c.ready = !c.init && !c.ephemeral
    if (c.logs) c.previousLogs = c.logs
    c.logs = this.newLogs(rec, c)
    if (c.init) this.exit(rec, c, 0)
    else if (!c.ephemeral) this.scheduleExit(rec, c)
    this.advance(rec)
    this.changed(rec.uid)
  }

  private newLogs(rec: Pod, c: Container): LogBuffer {
    const logs = new LogBuffer(SIM_LOG_LIMIT_BYTES)
    const pod = rec.pod.metadata
    logs.write(
      'stdout',
      `simulated container ${c.name} of pod ${pod.namespace}/${pod.name} started on node ${this.opts.nodeName}\n`,
    )
    logs.write('stdout', `container id ${c.containerID ?? 'unknown'}, restart ${c.restartCount}\n`)
    logs.write('stdout', 'no process runs here: this node is simulated\n')
    return logs
  }

  private scheduleExit(rec: Pod, c: Container): void {
    const annotations = rec.pod.metadata.annotations ?? {}
    const after = Number(annotations[EXIT_AFTER_ANNOTATION])
    if (annotations[EXIT_AFTER_ANNOTATION] === undefined || !Number.isFinite(after) || after < 0)
      return
    const code = Number(annotations[EXIT_CODE_ANNOTATION] ?? 0)
    const due = (c.startedAtMs ?? Date.now()) + after * 1000
    c.timer = setTimeout(
      () => {
        c.timer = undefined
        this.exit(rec, c, Number.isInteger(code) ? code : 1)
      },
      Math.max(0, due - Date.now()),
    )
  }

  private exit(rec: Pod, c: Container, exitCode: number): void {
    if (rec.stopped && c.startedAtMs === undefined) return
    const now = Date.now()
    c.logs?.write('stdout', `exiting with code ${exitCode}\n`)
    c.logs?.close()
    const terminated: Extract<State, { terminated: unknown }>['terminated'] = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt: formatTime(c.startedAtMs ?? now),
      finishedAt: formatTime(now),
    }
    if (c.containerID) terminated.containerID = c.containerID
    c.state = { terminated }
    c.ready = false
    const ranFor = now - (c.startedAtMs ?? now)
    c.startedAtMs = undefined
    if (
      !rec.stopped &&
      !this.closed &&
      !c.ephemeral &&
      shouldRestart(restartPolicyOf(rec.pod), exitCode, c.init)
    ) {
      const next = nextCrashDelay(c.crash, ranFor, this.backoff)
      c.crash = next.state
      c.lastState = c.state
      if (next.delayMs > 0) c.state = crashLoopState(next.delayMs, c.name, rec.pod.metadata)
      c.timer = setTimeout(() => {
        c.timer = undefined
        if (!rec.stopped && !this.closed) this.create(rec, c)
      }, next.delayMs)
    } else c.finished = true
    if (!c.init) this.changed(rec.uid)
    else {
      this.advance(rec)
      this.changed(rec.uid)
    }
  }

  async stop(podUid: string): Promise<void> {
    const rec = this.pods.get(podUid)
    if (!rec || rec.stopped) return
    rec.stopped = true
    for (const c of rec.containers) {
      if (c.timer) clearTimeout(c.timer)
      c.timer = undefined
      // A simulated process honours SIGTERM at once.
      if ('running' in c.state) this.exit(rec, c, 0)
    }
    this.changed(podUid)
  }

  forget(podUid: string): void {
    const rec = this.pods.get(podUid)
    if (rec) {
      rec.stopped = true
      for (const c of rec.containers) {
        if (c.timer) clearTimeout(c.timer)
        c.logs?.close()
      }
      this.pods.delete(podUid)
    }
    this.ips.release(podUid)
  }

  /** Simulated containers are left as they are: the next agent adopts them from the pods' status. */
  async shutdown(): Promise<void> {
    this.closed = true
    for (const rec of this.pods.values())
      for (const c of rec.containers) if (c.timer) clearTimeout(c.timer)
  }

  logs(podUid: string, opts: LogOptions): AsyncIterable<Uint8Array> {
    const self = this
    return (async function* () {
      const rec = self.pods.get(podUid)
      if (!rec) throw new Error(`pod ${podUid} is not running on this node`)
      const c = rec.containers.find((x) => x.name === opts.container)
      if (!c)
        throw new Error(`container ${opts.container} is not valid for pod ${rec.pod.metadata.name}`)
      const buffer = opts.previous ? c.previousLogs : c.logs
      if (!buffer) {
        if (opts.previous)
          throw new Error(
            `previous terminated container "${c.name}" in pod "${rec.pod.metadata.name}" not found`,
          )
        throw new Error(
          `container "${c.name}" in pod "${rec.pod.metadata.name}" is waiting to start: ContainerCreating`,
        )
      }
      yield* buffer.read(opts)
    })()
  }

  async exec(
    podUid: string,
    container: string,
    _command: string[],
    streams: ExecStreams,
  ): Promise<number> {
    const rec = this.pods.get(podUid)
    const c = rec?.containers.find((x) => x.name === container)
    if (!rec || !c) throw new Error(`container ${container} not found in pod ${podUid}`)
    if (!('running' in c.state)) throw new Error(`container ${container} is not running`)
    // Input is read and dropped so the caller's stream completes.
    if (streams.stdin) for await (const _ of streams.stdin) void _
    return 0
  }
}
