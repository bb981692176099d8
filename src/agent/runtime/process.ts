/**
 * Containers as child processes of the agent: `command` + `args` run in their own process group
 * with the container's environment and working directory. This file holds their lifecycle:
 * restart policy with crash-loop backoff, probes, and graceful stop (SIGTERM, then SIGKILL);
 * starting, exit records, spawning, exec, logs, options and the records live in the
 * `process-*.ts` files beside it.
 */
import { linkClaimVolumes, mountsClaims } from './process-volumes'
import type { KubeObject } from '../../apimachinery/types'
import type { LogOptions } from '../../agent-protocol/log-options'
import { crashBackoffFromEnv, nextCrashDelay, type CrashBackoffConfig } from './backoff'
import { PodDirs } from './pod-dirs'
import { agentIdentity } from './run-as'
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
import { execProcess } from './process-exec'
import { recordExit } from './process-exit'
import { signalGroup } from './process-group'
import { containerLogs } from './process-logs'
import { defaultBaseEnv, type ProcessRuntimeOptions } from './process-options'
import { adoptPod, newEphemeral, type Container, type Instance, type Pod } from './process-records'
import type { InstanceEnd } from './process-spawn'
import { startProcess, waitOnConfig, type ProcessHost } from './process-start'

const DEFAULT_SHUTDOWN_GRACE_SECONDS = 3

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
  private readonly host: ProcessHost

  constructor(private readonly opts: ProcessRuntimeOptions) {
    this.backoff = opts.backoff ?? crashBackoffFromEnv()
    this.baseEnv = opts.baseEnv ?? defaultBaseEnv()
    this.dirs = new PodDirs(opts.podsDir)
    this.host = {
      opts,
      agent: this.agent,
      dirs: this.dirs,
      envOf: (pod, c) => this.envOf(pod, c),
      changed: (uid) => this.changed(uid),
      exited: (rec, c, instance, end) => this.exited(rec, c, instance, end),
    }
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
      if (c.configError) waitOnConfig(c, c.configError)
      else this.start(rec, c)
    }
    for (const c of rec.containers.filter((x) => x.init)) {
      const t = 'terminated' in c.state ? c.state.terminated : undefined
      if (t && t.exitCode === 0) continue
      if (c.instance || c.restartTimer) return
      if (c.finished) return
      if (c.configError) return waitOnConfig(c, c.configError)
      this.start(rec, c)
      return
    }
    for (const c of rec.containers.filter((x) => !x.init && !x.ephemeral)) {
      if (c.instance || c.restartTimer || c.finished) continue
      if (c.configError) {
        waitOnConfig(c, c.configError)
        continue
      }
      this.start(rec, c)
    }
  }

  private start(rec: Pod, c: Container): void {
    startProcess(this.host, rec, c)
  }

  private exited(rec: Pod, c: Container, instance: Instance, end: InstanceEnd): void {
    const now = Date.now()
    if (!recordExit(c, instance, end, now)) return
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
