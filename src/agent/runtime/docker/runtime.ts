/**
 * Containers in a container engine over the Docker Engine API (Docker, or Podman's service).
 * Each pod gets an infra container holding its network namespace; init containers run in
 * order, then the app containers, all joined to it. Restart policy with crash-loop back-off,
 * image pull policy with pull back-off, probes, volumes, logs and exec through the engine.
 * Containers outlive the agent: a new agent adopts those of its pods and removes the rest.
 * This file runs each pod's steps in order; the sandbox, container start and exit, image pulls,
 * instance configs, removal and logs/exec/attach each have their own file beside it.
 */
import type Docker from 'dockerode'
import type { KubeObject } from '../../../apimachinery/types'
import type { LogOptions } from '../../../agent-protocol/log-options'
import type { EventType } from '../../events'
import { crashBackoffFromEnv, type CrashBackoffConfig } from '../backoff'
import { addEphemeral } from '../ephemeral'
import {
  findContainer,
  podKey,
  podRecord,
  reportContainer,
  type ContainerState,
  type ExecStreams,
  type ManagedRuntime,
} from '../types'
import { gracePeriod, isHostNetwork, type DockerContainerSpec } from './container-config'
import { containerAttach, containerExec, containerLogs } from './container-io'
import { isNoSuchObject } from './engine'
import { adoptPod } from './adopt'
import { containerExited } from './container-exit'
import type { ContainerHost } from './container-host'
import { startContainer } from './container-start'
import { stopPod } from './pod-stop'
import type { DockerRuntimeOptions } from './options'
import { newCtr, newPodRecord, quiesce, startProbes, type Ctr, type PodRec } from './pod-record'
import { OrphanSweep, removeContainer, removePodContainers } from './removal'
import { Sandboxes } from './sandbox'
import { execProbe } from './streams'
import { VolumeError } from './volumes'

/** How often configMap / secret / downwardAPI volume files are brought up to date (the kubelet: within a minute). */
const VOLUME_REFRESH_MS = 30_000
const SWEEP_MS = 15_000
const RETRY_SANDBOX_MS = 2_000
const RETRY_MAX_MS = 60_000

export class DockerRuntime implements ManagedRuntime {
  private readonly pods = new Map<string, PodRec>()
  private readonly listeners: ((podUid: string) => void)[] = []
  private readonly backoff: CrashBackoffConfig
  private readonly docker: Docker
  private readonly timers: NodeJS.Timeout[] = []
  private readonly sandboxes: Sandboxes
  private readonly orphans: OrphanSweep
  private shuttingDown = false
  private readonly host: ContainerHost

  constructor(private readonly opts: DockerRuntimeOptions) {
    this.docker = opts.docker
    this.backoff = opts.backoff ?? crashBackoffFromEnv()
    this.sandboxes = new Sandboxes(opts, (id) => this.remove(id))
    this.orphans = new OrphanSweep(
      opts.docker,
      opts.nodeName,
      (uid) => this.pods.has(uid),
      opts.log,
    )
    this.timers.push(
      setInterval(() => void this.sweep(), SWEEP_MS),
      setInterval(() => this.refreshVolumes(), VOLUME_REFRESH_MS),
    )
    this.host = {
      docker: this.docker,
      backoff: this.backoff,
      nodeName: opts.nodeName,
      log: opts.log,
      event: (rec, c, type, reason, message) => this.event(rec, c, type, reason, message),
      changed: (uid) => this.changed(uid),
      run: (rec, step) => this.run(rec, step),
      advanceLater: (rec) => void this.run(rec, () => this.advance(rec)),
      halted: (rec) => rec.stopping || this.shuttingDown,
      remove: (id) => this.remove(id),
      scheduleRestart: (rec, c, delayMs) => this.scheduleRestart(rec, c, delayMs),
      running: (rec, c, id) => {
        this.watch(rec, c, id)
        startProbes(rec, c, this.probeContext(rec))
      },
    }
  }

  onChange(listener: (podUid: string) => void): void {
    this.listeners.push(listener)
  }

  private changed(uid: string): void {
    for (const l of this.listeners) l(uid)
  }

  private event(
    rec: PodRec,
    c: Ctr | undefined,
    type: EventType,
    reason: string,
    message: string,
  ): void {
    this.opts.record?.(rec.pod, c?.name, type, reason, message)
  }

  /** A pod-level warning that a retry loop would repeat: posted once per distinct message. */
  private warnOnce(rec: PodRec, reason: string, message: string): void {
    const key = `${reason}\n${message}`
    if (rec.warned.has(key)) return
    rec.warned.add(key)
    this.event(rec, undefined, 'Warning', reason, message)
  }

  podIP(pod: KubeObject): string | undefined {
    if (isHostNetwork(pod)) return this.opts.nodeIP
    return this.pods.get(pod.metadata.uid ?? '')?.podIP
  }
  /** A pod's ports are on its own IP (the sandbox's network), or the node's for hostNetwork pods. */
  portHosts(podUid: string): string[] | undefined {
    const ip = this.pods.get(podUid)?.podIP
    return ip ? [ip] : undefined
  }

  podUids(): string[] {
    return [...this.pods.keys()]
  }

  adopting(podUid: string): boolean {
    const rec = this.pods.get(podUid)
    return !!rec && !rec.adopted
  }

  status(podUid: string): ContainerState[] | undefined {
    const rec = this.pods.get(podUid)
    if (!rec) return undefined
    return rec.containers.map((c) => {
      const s = reportContainer(c, c.started)
      if (c.imageID) s.imageID = c.imageID
      return s
    })
  }

  /** Runs one step of a pod's life after the ones before it: a pod is never worked on twice at once. */
  private run(rec: PodRec, step: () => Promise<void> | void): Promise<void> {
    rec.chain = rec.chain.then(step).catch((err: Error) => {
      this.opts.log?.warn(`${podKey(rec.pod)}: ${err.message}`)
      // A sandbox the engine keeps refusing (an infra image it cannot pull) is retried less and less often.
      this.retryLater(
        rec,
        Math.min(RETRY_MAX_MS, RETRY_SANDBOX_MS * 2 ** Math.min(rec.failures++, 8)),
      )
    })
    return rec.chain
  }

  private retryLater(rec: PodRec, ms: number): void {
    if (rec.retryTimer || rec.stopping || this.shuttingDown) return
    rec.retryTimer = setTimeout(() => {
      rec.retryTimer = undefined
      void this.run(rec, () => this.advance(rec))
    }, ms)
  }

  async sync(
    pod: KubeObject,
    resolvedEnv: Record<string, Record<string, string>>,
    configErrors: Record<string, string> = {},
  ): Promise<void> {
    if (this.shuttingDown) return
    const rec = podRecord(this.pods, pod, (p) => newPodRecord(p, this.opts.stateDir, this.opts.get))
    if (rec.stopping) return
    addEphemeral(rec.containers, pod, (spec) => ({
      ...newCtr(spec as DockerContainerSpec, false),
      ephemeral: true,
    }))
    for (const c of rec.containers) {
      if (c.id && c.running) continue
      c.env = resolvedEnv[c.name]
      c.configError =
        configErrors[c.name] ??
        (c.env ? undefined : `no environment resolved for container "${c.name}"`)
    }
    void this.run(rec, () => this.advance(rec))
  }

  /** Starts whatever may start now: the sandbox, init containers one at a time, then every app container. */
  private async advance(rec: PodRec): Promise<void> {
    if (rec.stopping || this.shuttingDown) return
    if (!rec.adopted) {
      const adopted = await adoptPod(this.docker, this.opts.nodeName, rec, {
        remove: async (id) => void (await this.remove(id)),
        running: (c, id) => {
          this.watch(rec, c, id)
          startProbes(rec, c, this.probeContext(rec))
        },
      })
      if (adopted) this.opts.log?.info(`adopted the running containers of ${podKey(rec.pod)}`)
      rec.adopted = true
    }
    if (!rec.infraId)
      await this.sandboxes.create(rec, (message) =>
        this.warnOnce(rec, 'FailedCreatePodSandBox', message),
      )
    rec.failures = 0
    try {
      await rec.volumes.setUp(rec.pod, { podIP: rec.podIP, hostIP: this.opts.nodeIP })
      rec.volumesReady = true
    } catch (err) {
      if (!(err instanceof VolumeError)) throw err
      this.warnOnce(rec, 'FailedMount', err.message)
      for (const c of rec.containers)
        if (!c.id)
          c.state = {
            waiting: {
              reason: c.init ? 'PodInitializing' : 'ContainerCreating',
              message: err.message,
            },
          }
      this.changed(rec.uid)
      this.retryLater(rec, RETRY_SANDBOX_MS)
      return
    }
    // Ephemeral containers start once, whether or not the pod is initialized, and never again.
    for (const c of rec.containers.filter((x) => x.ephemeral)) {
      if (c.running || c.restartTimer || c.finished || c.everStarted) continue
      await this.start(rec, c)
    }
    for (const c of rec.containers.filter((x) => x.init)) {
      const t = 'terminated' in c.state ? c.state.terminated : undefined
      if (t && t.exitCode === 0 && !c.running) continue
      if (c.running || c.restartTimer || c.finished) return this.changed(rec.uid)
      await this.start(rec, c)
      return this.changed(rec.uid)
    }
    for (const c of rec.containers.filter((x) => !x.init && !x.ephemeral)) {
      if (c.running || c.restartTimer || c.finished) continue
      await this.start(rec, c)
    }
    this.changed(rec.uid)
  }

  private probeContext(rec: PodRec) {
    return {
      host: this.podIP(rec.pod) ?? '127.0.0.1',
      exec: (c: Ctr, command: string[], timeoutMs: number) =>
        execProbe(this.docker, c.id ?? '', command, timeoutMs),
      changed: () => this.changed(rec.uid),
      kill: (c: Ctr, grace: number | undefined, why: string) => {
        this.opts.log?.info(`${podKey(rec.pod)} container ${c.name} ${why} and will be restarted`)
        this.event(rec, c, 'Normal', 'Killing', `Container ${c.name} ${why}, will be restarted`)
        if (c.id)
          void this.docker
            .getContainer(c.id)
            .stop({ t: grace ?? gracePeriod(rec.pod) })
            .catch(() => {})
      },
      log: this.opts.log,
    }
  }

  private start(rec: PodRec, c: Ctr): Promise<void> {
    return startContainer(this.host, rec, c)
  }

  /** Waits for the container to end, then records its exit. */
  private watch(rec: PodRec, c: Ctr, id: string): void {
    this.docker
      .getContainer(id)
      .wait()
      .then(
        () => this.run(rec, () => this.exited(rec, c, id)),
        (err) => {
          if (isNoSuchObject(err)) return this.run(rec, () => this.exited(rec, c, id))
          if (!this.shuttingDown)
            setTimeout(
              () => this.pods.get(rec.uid) === rec && c.id === id && this.watch(rec, c, id),
              2_000,
            )
        },
      )
  }

  private exited(rec: PodRec, c: Ctr, id: string): Promise<void> {
    return containerExited(this.host, rec, c, id)
  }

  private scheduleRestart(rec: PodRec, c: Ctr, delayMs: number): void {
    c.restartTimer = setTimeout(() => {
      c.restartTimer = undefined
      if (rec.stopping || this.shuttingDown || this.pods.get(rec.uid) !== rec) return
      void this.run(rec, () => this.advance(rec))
    }, delayMs)
  }

  async stop(podUid: string, gracePeriodSeconds: number): Promise<void> {
    const rec = this.pods.get(podUid)
    if (rec) await stopPod(this.host, rec, gracePeriodSeconds)
  }

  forget(podUid: string): void {
    const rec = this.pods.get(podUid)
    if (!rec) return
    rec.stopping = true
    quiesce(rec)
    this.pods.delete(podUid)
    void this.removePod(podUid).then(() => rec.volumes.tearDown())
  }

  /** Removes a container; false when the engine refused (said in the log). */
  private remove(id: string): Promise<boolean> {
    return removeContainer(this.docker, id, this.opts.log)
  }

  private removePod(podUid: string): Promise<void> {
    return removePodContainers(this.docker, this.opts.nodeName, podUid, this.opts.log)
  }

  private async sweep(): Promise<void> {
    if (this.shuttingDown) return
    await this.orphans.sweep()
  }

  /** Rewrites configMap / secret / downwardAPI files of running pods from the API's current objects. */
  private refreshVolumes(): void {
    for (const rec of this.pods.values()) {
      if (rec.stopping || !rec.volumesReady) continue
      void this.run(rec, () =>
        rec.volumes.setUp(rec.pod, { podIP: rec.podIP, hostIP: this.opts.nodeIP }).catch(() => {}),
      )
    }
  }

  /** The agent exits: containers keep running (as under the kubelet) for the next agent to adopt. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true
    for (const t of this.timers) clearInterval(t)
    for (const rec of this.pods.values()) quiesce(rec)
  }

  private container(podUid: string, name: string): Ctr {
    return findContainer(this.pods, podUid, name)
  }

  logs(podUid: string, opts: LogOptions): AsyncIterable<Uint8Array> {
    return containerLogs(
      this.docker,
      () => this.container(podUid, opts.container),
      () => this.pods.get(podUid)?.pod.metadata.name,
      opts,
    )
  }

  async exec(
    podUid: string,
    container: string,
    command: string[],
    streams: ExecStreams,
  ): Promise<number> {
    return containerExec(
      this.docker,
      this.container(podUid, container),
      container,
      command,
      streams,
    )
  }

  async attach(podUid: string, container: string, streams: ExecStreams): Promise<number> {
    return containerAttach(this.docker, this.container(podUid, container), container, streams)
  }
}
