/**
 * Containers as child processes of the agent: `command` + `args` run in their own process group
 * with the container's environment and working directory. Restart policy with crash-loop
 * backoff, probes, bounded logs per instance, exec, and graceful stop (SIGTERM, then SIGKILL).
 */
import { linkClaimVolumes, mountsClaims } from './process-volumes'
import type { ApiGet } from './claim-path'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import { constants } from 'node:os'
import type { KubeObject } from '../../apimachinery/types'
import { expandVars, podContainers, type ContainerSpec } from '../env'
import type { Logger } from '../log'
import { kubeTime } from '../pod-status'
import { crashBackoffFromEnv, nextCrashDelay, type CrashBackoffConfig, type CrashLoopState } from './backoff'
import { DEFAULT_LOG_LIMIT_BYTES, LogBuffer } from './log-buffer'
import { PodDirs } from './pod-dirs'
import { agentIdentity, runAsFor, type RunAs } from './run-as'
import { startContainerProbes } from './container-probes'
import type { Probe, ProbeWorker } from './probes'
import { crashLoopState, lostInstance, shouldRestart } from './restart'
import { addEphemeral } from './ephemeral'
import { findContainer, freshRecord, podRecord, reportContainer, type ContainerRecord, type ContainerState, type ExecStreams, type LogOptions, type ManagedRuntime } from './types'

type State = ContainerState['state']

export interface ProcessRuntimeOptions {
  /** the node's IP: every pod's IP, since processes share the host's network */
  nodeIP: string
  /** where httpGet and tcpSocket probes connect when the probe names no host */
  probeHost?: string
  backoff?: CrashBackoffConfig
  logLimitBytes?: number
  /** variables every container starts with (PATH, HOME …) before its own */
  baseEnv?: Record<string, string>
  log?: Logger
  /** grace period for the containers still running when the agent exits */
  shutdownGraceSeconds?: number
  /** where each pod gets its working directory (`<podsDir>/<uid>`) when its containers set none */
  podsDir: string
  /** reads the claims and volumes of the pods' persistentVolumeClaim volumes */
  get?: ApiGet
}

interface ContainerSpecWithProbes extends ContainerSpec {
  readinessProbe?: Probe
  livenessProbe?: Probe
  startupProbe?: Probe
  terminationMessagePolicy?: string
}

interface Instance {
  id: string
  child: ChildProcess | undefined
  startedAtMs: number
  exited: Promise<void>
  markExited: () => void
  done: boolean
}

interface Container extends ContainerRecord<ContainerSpecWithProbes> {
  instance: Instance | undefined
  logs: LogBuffer | undefined
  previousLogs: LogBuffer | undefined
  crash: CrashLoopState
  restartTimer: NodeJS.Timeout | undefined
  probes: ProbeWorker[]
  execs: Set<ChildProcess>
  /** the user its processes run as (securityContext) */
  runAs: RunAs
  /** set when no restart may follow (init container done, policy says no, pod stopping) */
  finished: boolean
}

interface Pod {
  uid: string
  pod: KubeObject
  containers: Container[]
  stopping: boolean
  killTimer: NodeJS.Timeout | undefined
  killAtMs: number | undefined
}

const DEFAULT_SHUTDOWN_GRACE_SECONDS = 3
const PIPE_DRAIN_MS = 2_000
/** kubelet keeps at most this much of a failed container's log as its termination message. */
const TERMINATION_MESSAGE_LINES = 80
const TERMINATION_MESSAGE_BYTES = 4096

/** The agent's environment passed on to containers: enough to find programs and a home. */
export function defaultBaseEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TZ']) if (env[k] !== undefined) out[k] = env[k]!
  out.PATH ??= '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  return out
}

/** Every runtime of this process, for one last-resort exit hook: no process group outlives the agent. */
const live = new Set<ProcessRuntime>()
process.once('exit', () => {
  for (const r of live) r.killEverything()
})

export class ProcessRuntime implements ManagedRuntime {
  private readonly pods = new Map<string, Pod>()
  private readonly listeners: ((podUid: string) => void)[] = []
  private readonly backoff: CrashBackoffConfig
  private readonly baseEnv: Record<string, string>
  private readonly dirs: PodDirs
  private readonly agent = agentIdentity()
  private shuttingDown = false
  /** pods whose claim volumes are linked into their directory */
  private readonly claimsLinked = new Set<string>()

  constructor(private readonly opts: ProcessRuntimeOptions) {
    this.backoff = opts.backoff ?? crashBackoffFromEnv()
    this.baseEnv = opts.baseEnv ?? defaultBaseEnv()
    this.dirs = new PodDirs(opts.podsDir)
    live.add(this)
  }

  onChange(listener: (podUid: string) => void): void {
    this.listeners.push(listener)
  }

  private changed(uid: string): void {
    for (const l of this.listeners) l(uid)
  }

  podIP(): string {
    return this.opts.nodeIP
  }

  /** Processes share the node's network: a pod's ports are the host's loopback ports. */
  portHosts(podUid: string): string[] | undefined {
    return this.pods.has(podUid) ? ['127.0.0.1', '::1'] : undefined
  }

  podUids(): string[] {
    return [...this.pods.keys()]
  }

  status(podUid: string): ContainerState[] | undefined {
    const pod = this.pods.get(podUid)
    if (!pod) return undefined
    return pod.containers.map((c) => reportContainer(c, c.started))
  }

  async sync(pod: KubeObject, resolvedEnv: Record<string, Record<string, string>>, configErrors: Record<string, string> = {}): Promise<void> {
    if (this.shuttingDown) return
    const rec = podRecord(this.pods, pod, (p) => this.adopt(p))
    if (rec.stopping) return
    addEphemeral(rec.containers, pod, (spec) => this.newEphemeral(pod, spec))
    if (this.opts.get && !this.claimsLinked.has(rec.uid) && mountsClaims(pod)) {
      try {
        await linkClaimVolumes(pod, this.dirs.dirOf(rec.uid), this.opts.get)
        this.claimsLinked.add(rec.uid)
      } catch (err) {
        configErrors = Object.fromEntries(rec.containers.map((c) => [c.name, (err as Error).message]))
      }
    }
    for (const c of rec.containers) {
      if (c.instance || c.restartTimer || c.finished) continue
      c.env = resolvedEnv[c.name]
      c.configError = configErrors[c.name] ?? (c.env ? undefined : `no environment resolved for container "${c.name}"`)
    }
    this.advance(rec)
    this.changed(pod.metadata.uid ?? '')
  }

  /** A new record; containers that ran under a previous agent continue their history. */
  private adopt(pod: KubeObject): Pod {
    const status = (pod.status ?? {}) as { containerStatuses?: PrevStatus[]; initContainerStatuses?: PrevStatus[] }
    const policy = restartPolicyOf(pod)
    const initNames = new Set(((pod.spec as { initContainers?: ContainerSpec[] } | undefined)?.initContainers ?? []).map((c) => c.name))
    const containers = podContainers(pod).map((spec): Container => {
      const init = initNames.has(spec.name)
      const c = newContainer(spec, init)
      const prev = (init ? status.initContainerStatuses : status.containerStatuses)?.find((s) => s.name === spec.name)
      if (prev) adoptPrevious(c, prev, policy)
      return c
    })
    return { uid: pod.metadata.uid ?? '', pod, containers, stopping: false, killTimer: undefined, killAtMs: undefined }
  }

  /**
   * An ephemeral container: a process in the pod's directory, as the others. One a previous agent
   * started is over (its process ended with that agent): it is not run again.
   */
  private newEphemeral(pod: KubeObject, spec: ContainerSpec): Container {
    const c: Container = { ...newContainer(spec, false), ephemeral: true }
    const status = (pod.status ?? {}) as { ephemeralContainerStatuses?: PrevStatus[] }
    const prev = status.ephemeralContainerStatuses?.find((s) => s.name === spec.name)
    if (prev && (prev.state?.running || prev.state?.terminated)) {
      adoptPrevious(c, prev, 'Never')
      c.finished = true
    }
    return c
  }

  /** Starts whatever may start now: ephemeral containers, init containers one at a time, then every app container. */
  private advance(rec: Pod): void {
    if (rec.stopping || this.shuttingDown) return
    for (const c of rec.containers.filter((x) => x.ephemeral)) {
      if (c.instance || c.finished || c.everStarted) continue
      if (c.configError) this.waitOnConfig(c, c.configError)
      else this.start(rec, c)
    }
    for (const c of rec.containers.filter((x) => x.init)) {
      const t = 'terminated' in c.state ? c.state.terminated : undefined
      if (t && t.exitCode === 0) continue
      if (c.instance || c.restartTimer) return
      if (c.finished) return
      if (c.configError) return this.waitOnConfig(c, c.configError)
      this.start(rec, c)
      return
    }
    for (const c of rec.containers.filter((x) => !x.init && !x.ephemeral)) {
      if (c.instance || c.restartTimer || c.finished) continue
      if (c.configError) {
        this.waitOnConfig(c, c.configError)
        continue
      }
      this.start(rec, c)
    }
  }

  private waitOnConfig(c: Container, message: string): void {
    c.state = { waiting: { reason: 'CreateContainerConfigError', message } }
  }

  private start(rec: Pod, c: Container): void {
    const command = c.spec.command ?? []
    if (command.length === 0) {
      const image = c.spec.image ? ` (image "${c.spec.image}" is not run: this node runs processes, not images)` : ''
      return this.waitOnConfig(c, `container "${c.name}" has no command${image}; set command (and args) to the program to run`)
    }
    const runAs = runAsFor(rec.pod, c.spec, this.agent)
    if ('error' in runAs) return this.waitOnConfig(c, runAs.error)
    c.runAs = runAs
    const env = { ...this.baseEnv, HOSTNAME: rec.pod.metadata.name ?? '', ...(c.env ?? {}) }
    const argv = [...command, ...(c.spec.args ?? [])].map((a) => expandVars(a, c.env ?? {}))
    const cwd = c.spec.workingDir || this.dirs.dirOf(rec.uid, runAs)
    const blocked = runAs.uid === undefined || c.spec.workingDir ? undefined : PodDirs.unreachable(cwd, runAs.uid)
    if (blocked) return this.waitOnConfig(c, `the pod's directory ${cwd} is out of reach of runAsUser ${runAs.uid}: ${blocked}; give the node agent a --state-dir outside it`)
    const id = randomBytes(16).toString('hex')
    const now = Date.now()

    if (c.everStarted) c.restartCount++
    c.everStarted = true
    if (c.logs) c.previousLogs = c.logs
    c.logs = new LogBuffer(this.opts.logLimitBytes ?? DEFAULT_LOG_LIMIT_BYTES)
    c.containerID = `process://${id}`
    c.ready = false
    c.started = false

    let markExited!: () => void
    const exited = new Promise<void>((resolve) => (markExited = resolve))
    const instance: Instance = { id, child: undefined, startedAtMs: now, exited, markExited, done: false }
    c.instance = instance

    const startError = workingDirError(cwd)
    if (startError) {
      c.state = { running: { startedAt: kubeTime(now) } }
      this.exited(rec, c, instance, { exitCode: 128, reason: 'StartError', message: startError })
      return
    }
    let child: ChildProcess
    try {
      child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...runAs })
    } catch (err) {
      c.state = { running: { startedAt: kubeTime(now) } }
      this.exited(rec, c, instance, { exitCode: 128, reason: 'StartError', message: (err as Error).message })
      return
    }
    instance.child = child
    const logs = c.logs
    child.stdout!.on('data', (chunk: Buffer) => logs.write('stdout', chunk))
    child.stderr!.on('data', (chunk: Buffer) => logs.write('stderr', chunk))
    child.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.code === 'ENOENT' ? `exec: "${argv[0]}": executable file not found in $PATH` : err.code === 'EACCES' ? `exec: "${argv[0]}": permission denied` : err.message
      this.exited(rec, c, instance, { exitCode: 128, reason: 'StartError', message })
    })
    // The main process's exit ends the container: the rest of its group is killed, and the
    // instance is finished once the output pipes have drained (or shortly after, if something
    // outside the group still holds them).
    let exitCode: number | undefined
    let drainTimer: NodeJS.Timeout | undefined
    const finish = () => {
      if (drainTimer) clearTimeout(drainTimer)
      const code = exitCode ?? 1
      this.exited(rec, c, instance, { exitCode: code, reason: code === 0 ? 'Completed' : 'Error' })
    }
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)
      signalGroup(child, 'SIGKILL')
      drainTimer = setTimeout(finish, PIPE_DRAIN_MS)
    })
    child.on('close', (code, signal) => {
      exitCode ??= code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)
      finish()
    })
    c.state = { running: { startedAt: kubeTime(now) } }
    this.opts.log?.debug(`started ${podKey(rec.pod)} container ${c.name} (pid ${child.pid})`)
    this.startProbes(rec, c, instance)
  }

  private startProbes(rec: Pod, c: Container, instance: Instance): void {
    const target = {
      host: this.opts.probeHost ?? '127.0.0.1',
      ports: Object.fromEntries((c.spec.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort])),
      env: { ...this.baseEnv, HOSTNAME: rec.pod.metadata.name ?? '', ...(c.env ?? {}) },
      cwd: c.spec.workingDir || this.dirs.dirOf(rec.uid, c.runAs),
      ...c.runAs,
    }
    startContainerProbes(c, target, instance.startedAtMs, {
      current: () => c.instance === instance && !instance.done,
      changed: () => this.changed(rec.uid),
      failed: (kind, probe, message) => {
        this.opts.log?.info(`${podKey(rec.pod)} container ${c.name} failed its ${kind} probe and will be restarted: ${message}`)
        this.killInstance(rec, instance, probe.terminationGracePeriodSeconds)
      },
    })
  }

  /** A probe decided the instance must go: SIGTERM, SIGKILL after the grace period. */
  private killInstance(rec: Pod, instance: Instance, probeGrace: number | undefined): void {
    const grace = probeGrace ?? ((rec.pod.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds ?? 30)
    signalGroup(instance.child, 'SIGTERM')
    const timer = setTimeout(() => signalGroup(instance.child, 'SIGKILL'), grace * 1000)
    void instance.exited.then(() => clearTimeout(timer))
  }

  private exited(rec: Pod, c: Container, instance: Instance, end: { exitCode: number; reason: string; message?: string }): void {
    if (instance.done) return
    instance.done = true
    const now = Date.now()
    for (const w of c.probes) w.stop()
    c.probes = []
    for (const e of c.execs) signalGroup(e, 'SIGKILL')
    // Whatever the main process left behind in its group goes with it, as with a container.
    signalGroup(instance.child, 'SIGKILL')
    c.logs?.close()
    const terminated: Extract<State, { terminated: unknown }>['terminated'] = {
      exitCode: end.exitCode,
      reason: end.reason,
      startedAt: kubeTime(instance.startedAtMs),
      finishedAt: kubeTime(now),
      containerID: `process://${instance.id}`,
    }
    const message = end.message ?? (end.exitCode !== 0 && c.spec.terminationMessagePolicy === 'FallbackToLogsOnError' ? tailOf(c.logs) : undefined)
    if (message) terminated.message = message
    c.state = { terminated }
    c.ready = false
    c.started = false
    c.instance = undefined
    instance.markExited()
    this.opts.log?.debug(`${podKey(rec.pod)} container ${c.name} exited with ${end.exitCode} (${end.reason})`)

    if (!rec.stopping && !this.shuttingDown && !c.ephemeral && shouldRestart(restartPolicyOf(rec.pod), end.exitCode, c.init)) {
      const next = nextCrashDelay(c.crash, now - instance.startedAtMs, this.backoff)
      c.crash = next.state
      c.lastState = c.state
      if (next.delayMs === 0) {
        c.restartTimer = setTimeout(() => this.restart(rec, c), 0)
      } else {
        c.state = crashLoopState(next.delayMs, c.name, rec.pod.metadata)
        c.restartTimer = setTimeout(() => this.restart(rec, c), next.delayMs)
      }
    } else {
      c.finished = true
    }
    this.advance(rec)
    this.changed(rec.uid)
  }

  private restart(rec: Pod, c: Container): void {
    c.restartTimer = undefined
    if (rec.stopping || this.shuttingDown || this.pods.get(rec.uid) !== rec) return
    this.start(rec, c)
    this.advance(rec)
    this.changed(rec.uid)
  }

  async stop(podUid: string, gracePeriodSeconds: number): Promise<void> {
    const rec = this.pods.get(podUid)
    if (!rec) return
    const first = !rec.stopping
    rec.stopping = true
    for (const c of rec.containers) {
      if (c.restartTimer) clearTimeout(c.restartTimer)
      c.restartTimer = undefined
      for (const w of c.probes) w.stop()
    }
    const running = rec.containers.map((c) => c.instance).filter((i): i is Instance => !!i && !i.done)
    if (first) for (const i of running) signalGroup(i.child, 'SIGTERM')
    const killAt = Date.now() + Math.max(0, gracePeriodSeconds) * 1000
    if (rec.killAtMs === undefined || killAt < rec.killAtMs) {
      rec.killAtMs = killAt
      if (rec.killTimer) clearTimeout(rec.killTimer)
      const kill = () => {
        for (const c of rec.containers) if (c.instance && !c.instance.done) signalGroup(c.instance.child, 'SIGKILL')
      }
      if (gracePeriodSeconds <= 0) kill()
      else rec.killTimer = setTimeout(kill, gracePeriodSeconds * 1000)
    }
    if (first) this.changed(podUid)
    await Promise.all(rec.containers.map((c) => c.instance?.exited))
    if (rec.killTimer) clearTimeout(rec.killTimer)
  }

  forget(podUid: string): void {
    const rec = this.pods.get(podUid)
    if (!rec) return
    rec.stopping = true
    for (const c of rec.containers) {
      if (c.restartTimer) clearTimeout(c.restartTimer)
      for (const w of c.probes) w.stop()
      if (c.instance && !c.instance.done) signalGroup(c.instance.child, 'SIGKILL')
      c.logs?.close()
    }
    if (rec.killTimer) clearTimeout(rec.killTimer)
    this.pods.delete(podUid)
    this.dirs.remove(podUid)
    this.claimsLinked.delete(podUid)
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true
    const grace = this.opts.shutdownGraceSeconds ?? DEFAULT_SHUTDOWN_GRACE_SECONDS
    await Promise.all([...this.pods.keys()].map((uid) => this.stop(uid, grace)))
    live.delete(this)
  }

  /** SIGKILL to every process group still running; for the exit hook. */
  killEverything(): void {
    for (const rec of this.pods.values()) {
      for (const c of rec.containers) {
        if (c.instance && !c.instance.done) signalGroup(c.instance.child, 'SIGKILL')
        for (const e of c.execs) signalGroup(e, 'SIGKILL')
      }
    }
  }

  private container(podUid: string, name: string): Container {
    return findContainer(this.pods, podUid, name)
  }

  logs(podUid: string, opts: LogOptions): AsyncIterable<Uint8Array> {
    return readLogs(() => {
      const c = this.container(podUid, opts.container)
      if (opts.previous) {
        if (!c.previousLogs) throw new Error(`previous terminated container "${c.name}" in pod "${this.pods.get(podUid)?.pod.metadata.name}" not found`)
        return c.previousLogs.read(opts)
      }
      if (!c.logs) {
        const reason = 'waiting' in c.state ? c.state.waiting.reason : 'ContainerCreating'
        throw new Error(`container "${c.name}" in pod "${this.pods.get(podUid)?.pod.metadata.name}" is waiting to start: ${reason}`)
      }
      return c.logs.read({ ...opts, follow: opts.follow && !c.logs.closed })
    })
  }

  exec(podUid: string, container: string, command: string[], streams: ExecStreams): Promise<number> {
    const rec = this.pods.get(podUid)
    let c: Container
    try {
      c = this.container(podUid, container)
    } catch (err) {
      return Promise.reject(err)
    }
    if (!c.instance || c.instance.done) return Promise.reject(new Error(`container ${container} is not running`))
    if (command.length === 0) return Promise.reject(new Error('exec needs a command'))
    const env = { ...this.baseEnv, HOSTNAME: rec?.pod.metadata.name ?? '', ...(c.env ?? {}) }
    return new Promise<number>((resolve) => {
      const child = spawn(command[0]!, command.slice(1), { cwd: c.spec.workingDir || this.dirs.dirOf(podUid, c.runAs), ...c.runAs, env, stdio: [streams.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true })
      c.execs.add(child)
      child.stdout!.on('data', (chunk: Buffer) => streams.stdout(new Uint8Array(chunk)))
      child.stderr!.on('data', (chunk: Buffer) => streams.stderr(new Uint8Array(chunk)))
      let done = false
      const finish = (code: number) => {
        if (done) return
        done = true
        c.execs.delete(child)
        resolve(code)
      }
      child.on('error', (err: NodeJS.ErrnoException) => {
        const text = err.code === 'ENOENT' ? `exec: "${command[0]}": executable file not found in $PATH\n` : `exec: "${command[0]}": ${err.message}\n`
        streams.stderr(new Uint8Array(Buffer.from(text)))
        finish(err.code === 'ENOENT' ? 127 : 126)
      })
      child.on('close', (code, signal) => finish(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)))
      if (streams.stdin && child.stdin) {
        const stdin = child.stdin
        stdin.on('error', () => {})
        void (async () => {
          try {
            for await (const chunk of streams.stdin!) if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r))
          } catch {
            // the caller's stream broke: end the input all the same
          }
          stdin.end()
        })()
      }
    })
  }
}

/** A container's record before its first instance. */
function newContainer(spec: ContainerSpecWithProbes, init: boolean): Container {
  return {
    ...freshRecord(spec, init),
    instance: undefined,
    logs: undefined,
    previousLogs: undefined,
    crash: { streak: 0 },
    restartTimer: undefined,
    probes: [],
    execs: new Set(),
    runAs: {},
    finished: false,
  }
}

/** Wraps a log read so that a missing container fails on the first read, as a stream error. */
async function* readLogs(open: () => AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* open()
}

interface PrevStatus {
  name: string
  state?: { running?: { startedAt?: string }; terminated?: { exitCode?: number; startedAt?: string; finishedAt?: string }; waiting?: { reason?: string } }
  lastState?: State | Record<string, never>
  restartCount?: number
}

/**
 * Picks up a container's history from the pod's status when the agent restarted: a finished
 * init container stays finished; an instance that was running is lost (its processes ended with
 * the old agent) and counts as a failed run; the restart policy then decides.
 */
function adoptPrevious(c: Container, prev: PrevStatus, policy: string): void {
  const now = kubeTime(Date.now())
  c.restartCount = prev.restartCount ?? 0
  const hadLast = prev.lastState && Object.keys(prev.lastState).length > 0
  if (hadLast) c.lastState = prev.lastState as State
  const t = prev.state?.terminated
  if (t) {
    c.everStarted = true
    c.state = { terminated: { exitCode: t.exitCode ?? 0, reason: (t as { reason?: string }).reason ?? (t.exitCode ? 'Error' : 'Completed'), startedAt: t.startedAt, finishedAt: t.finishedAt ?? now } }
    if ((c.init && t.exitCode === 0) || !shouldRestart(policy, t.exitCode ?? 0, c.init)) c.finished = true
    return
  }
  if (prev.state?.running) {
    c.everStarted = true
    const lost = lostInstance(now, prev.state.running.startedAt)
    c.state = lost
    if (!shouldRestart(policy, 137, c.init)) c.finished = true
    else c.lastState = lost
    return
  }
  if (hadLast || c.restartCount > 0) c.everStarted = true
}

function restartPolicyOf(pod: KubeObject): string {
  return (pod.spec as { restartPolicy?: string } | undefined)?.restartPolicy ?? 'Always'
}

function podKey(pod: KubeObject): string {
  return `pod ${pod.metadata.namespace}/${pod.metadata.name}`
}

function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

function workingDirError(dir: string): string | undefined {
  try {
    if (statSync(dir).isDirectory()) return undefined
    return `failed to start container: chdir to cwd ("${dir}") set in config.json failed: not a directory`
  } catch {
    return `failed to start container: chdir to cwd ("${dir}") set in config.json failed: no such file or directory`
  }
}

function tailOf(logs: LogBuffer | undefined): string | undefined {
  if (!logs) return undefined
  const lines = logs.text().split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const text = lines.slice(-TERMINATION_MESSAGE_LINES).join('\n')
  if (!text) return undefined
  return Buffer.from(text).subarray(-TERMINATION_MESSAGE_BYTES).toString('utf8')
}
