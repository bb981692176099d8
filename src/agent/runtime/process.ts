/**
 * Containers as child processes of the agent: `command` + `args` run in their own process group
 * with the container's environment and working directory. This file holds their lifecycle:
 * restart policy with crash-loop backoff, probes, and graceful stop (SIGTERM, then SIGKILL);
 * spawning, exec, logs and the records live in the `process-*.ts` files beside it.
 */
import { linkClaimVolumes, mountsClaims } from './process-volumes'
import type { ApiGet } from './claim-path'
import { randomBytes } from 'node:crypto'
import type { KubeObject } from '../../apimachinery/types'
import type { LogOptions } from '../../agent-protocol/log-options'
import { expandVars } from '../container-env'
import type { Logger } from '../log'
import { crashBackoffFromEnv, nextCrashDelay, type CrashBackoffConfig } from './backoff'
import { DEFAULT_LOG_LIMIT_BYTES, LogBuffer } from './log-buffer'
import { PodDirs } from './pod-dirs'
import { agentIdentity, runAsFor } from './run-as'
import { startContainerProbes } from './container-probes'
import { crashLoopState, restartPolicyOf, shouldRestart } from './restart'
import { addEphemeral } from './ephemeral'
import {
  findContainer,
  podKey,
  podRecord,
  reportContainer,
  type ContainerState,
  type ExecStreams,
  type ManagedRuntime,
} from './types'
import { formatTime } from '../../apimachinery/meta-time'
import { execProcess } from './process-exec'
import { signalGroup } from './process-group'
import { containerLogs, tailOf } from './process-logs'
import { adoptPod, newEphemeral, type Container, type Instance, type Pod } from './process-records'
import { spawnMain, type InstanceEnd } from './process-spawn'

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

const DEFAULT_SHUTDOWN_GRACE_SECONDS = 3

/** The agent's environment passed on to containers: enough to find programs and a home. */
export function defaultBaseEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TZ'])
    if (env[k] !== undefined) out[k] = env[k]!
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

  async sync(
    pod: KubeObject,
    resolvedEnv: Record<string, Record<string, string>>,
    configErrors: Record<string, string> = {},
  ): Promise<void> {
    if (this.shuttingDown) return
    const rec = podRecord(this.pods, pod, adoptPod)
    if (rec.stopping) return
    addEphemeral(rec.containers, pod, (spec) => newEphemeral(pod, spec))
    if (this.opts.get && !this.claimsLinked.has(rec.uid) && mountsClaims(pod)) {
      try {
        await linkClaimVolumes(pod, this.dirs.dirOf(rec.uid), this.opts.get)
        this.claimsLinked.add(rec.uid)
      } catch (err) {
        configErrors = Object.fromEntries(
          rec.containers.map((c) => [c.name, (err as Error).message]),
        )
      }
    }
    for (const c of rec.containers) {
      if (c.instance || c.restartTimer || c.finished) continue
      c.env = resolvedEnv[c.name]
      c.configError =
        configErrors[c.name] ??
        (c.env ? undefined : `no environment resolved for container "${c.name}"`)
    }
    this.advance(rec)
    this.changed(pod.metadata.uid ?? '')
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
      const image = c.spec.image
        ? ` (image "${c.spec.image}" is not run: this node runs processes, not images)`
        : ''
      return this.waitOnConfig(
        c,
        `container "${c.name}" has no command${image}; set command (and args) to the program to run`,
      )
    }
    const runAs = runAsFor(rec.pod, c.spec, this.agent)
    if ('error' in runAs) return this.waitOnConfig(c, runAs.error)
    c.runAs = runAs
    const env = this.envOf(rec.pod, c)
    const argv = [...command, ...(c.spec.args ?? [])].map((a) => expandVars(a, c.env ?? {}))
    const cwd = c.spec.workingDir || this.dirs.dirOf(rec.uid, runAs)
    const blocked =
      runAs.uid === undefined || c.spec.workingDir ? undefined : PodDirs.unreachable(cwd, runAs.uid)
    if (blocked)
      return this.waitOnConfig(
        c,
        `the pod's directory ${cwd} is out of reach of runAsUser ${runAs.uid}: ${blocked}; give the node agent a --state-dir outside it`,
      )
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
    const instance: Instance = {
      id,
      child: undefined,
      startedAtMs: now,
      exited,
      markExited,
      done: false,
    }
    c.instance = instance

    const started = spawnMain(argv, { cwd, env, ...runAs }, c.logs, (end) =>
      this.exited(rec, c, instance, end),
    )
    if ('failed' in started) {
      c.state = { running: { startedAt: formatTime(now) } }
      this.exited(rec, c, instance, started.failed)
      return
    }
    const child = started.child
    instance.child = child
    c.state = { running: { startedAt: formatTime(now) } }
    this.opts.log?.debug(`started ${podKey(rec.pod)} container ${c.name} (pid ${child.pid})`)
    this.startProbes(rec, c, instance)
  }

  private startProbes(rec: Pod, c: Container, instance: Instance): void {
    const target = {
      host: this.opts.probeHost ?? '127.0.0.1',
      ports: Object.fromEntries(
        (c.spec.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort]),
      ),
      env: this.envOf(rec.pod, c),
      cwd: c.spec.workingDir || this.dirs.dirOf(rec.uid, c.runAs),
      ...c.runAs,
    }
    startContainerProbes(c, target, instance.startedAtMs, {
      current: () => c.instance === instance && !instance.done,
      changed: () => this.changed(rec.uid),
      failed: (kind, probe, message) => {
        this.opts.log?.info(
          `${podKey(rec.pod)} container ${c.name} failed its ${kind} probe and will be restarted: ${message}`,
        )
        this.killInstance(rec, instance, probe.terminationGracePeriodSeconds)
      },
    })
  }

  /** A probe decided the instance must go: SIGTERM, SIGKILL after the grace period. */
  private killInstance(rec: Pod, instance: Instance, probeGrace: number | undefined): void {
    const grace =
      probeGrace ??
      (rec.pod.spec as { terminationGracePeriodSeconds?: number } | undefined)
        ?.terminationGracePeriodSeconds ??
      30
    signalGroup(instance.child, 'SIGTERM')
    const timer = setTimeout(() => signalGroup(instance.child, 'SIGKILL'), grace * 1000)
    void instance.exited.then(() => clearTimeout(timer))
  }

  private exited(rec: Pod, c: Container, instance: Instance, end: InstanceEnd): void {
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
      startedAt: formatTime(instance.startedAtMs),
      finishedAt: formatTime(now),
      containerID: `process://${instance.id}`,
    }
    const message =
      end.message ??
      (end.exitCode !== 0 && c.spec.terminationMessagePolicy === 'FallbackToLogsOnError'
        ? tailOf(c.logs)
        : undefined)
    if (message) terminated.message = message
    c.state = { terminated }
    c.ready = false
    c.started = false
    c.instance = undefined
    instance.markExited()
    this.opts.log?.debug(
      `${podKey(rec.pod)} container ${c.name} exited with ${end.exitCode} (${end.reason})`,
    )

    if (
      !rec.stopping &&
      !this.shuttingDown &&
      !c.ephemeral &&
      shouldRestart(restartPolicyOf(rec.pod), end.exitCode, c.init)
    ) {
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
    const running = rec.containers
      .map((c) => c.instance)
      .filter((i): i is Instance => !!i && !i.done)
    if (first) for (const i of running) signalGroup(i.child, 'SIGTERM')
    const killAt = Date.now() + Math.max(0, gracePeriodSeconds) * 1000
    if (rec.killAtMs === undefined || killAt < rec.killAtMs) {
      rec.killAtMs = killAt
      if (rec.killTimer) clearTimeout(rec.killTimer)
      const kill = () => {
        for (const c of rec.containers)
          if (c.instance && !c.instance.done) signalGroup(c.instance.child, 'SIGKILL')
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
    return containerLogs(
      () => this.container(podUid, opts.container),
      () => this.pods.get(podUid)?.pod.metadata.name,
      opts,
    )
  }

  exec(
    podUid: string,
    container: string,
    command: string[],
    streams: ExecStreams,
  ): Promise<number> {
    const rec = this.pods.get(podUid)
    let c: Container
    try {
      c = this.container(podUid, container)
    } catch (err) {
      return Promise.reject(err)
    }
    if (!c.instance || c.instance.done)
      return Promise.reject(new Error(`container ${container} is not running`))
    if (command.length === 0) return Promise.reject(new Error('exec needs a command'))
    return execProcess(c.execs, command, streams, {
      cwd: c.spec.workingDir || this.dirs.dirOf(podUid, c.runAs),
      ...c.runAs,
      env: this.envOf(rec?.pod, c),
    })
  }

  /** A container's environment: the agent's base, the pod's name as HOSTNAME, then its own variables. */
  private envOf(pod: KubeObject | undefined, c: Container): Record<string, string> {
    return { ...this.baseEnv, HOSTNAME: pod?.metadata.name ?? '', ...(c.env ?? {}) }
  }
}
