/**
 * Containers in a container engine over the Docker Engine API (Docker, or Podman's service).
 * Each pod gets an infra container holding its network namespace; init containers run in
 * order, then the app containers, all joined to it. Restart policy with crash-loop back-off,
 * image pull policy with pull back-off, probes, volumes, logs and exec through the engine.
 * Containers outlive the agent: a new agent adopts those of its pods and removes the rest.
 */
import { join } from 'node:path'
import type Docker from 'dockerode'
import type { KubeObject } from '../../../apimachinery/types'
import type { LogOptions } from '../../../agent-protocol/log-options'
import { podContainers } from '../../env'
import type { EventType, PodEventRecorder } from '../../events'
import type { Logger } from '../../log'
import { crashBackoffFromEnv, nextCrashDelay, type CrashBackoffConfig } from '../backoff'
import { crashLoopState, shouldRestart } from '../restart'
import { addEphemeral, type EphemeralSpec } from '../ephemeral'
import { findContainer, freshRecord, podRecord, reportContainer, type ContainerState, type ExecStreams, type ManagedRuntime } from '../types'
import { appConfig, gracePeriod, infraConfig, INFRA_NAME, isHostNetwork, pullPolicy, type DockerContainerSpec } from './container-config'
import { engineMessage, isNoSuchObject } from './engine'
import { adoptPod, restartPolicyOf } from './adopt'
import { containerIP, listOwnContainers, terminatedState } from './engine-state'
import { ensureImage, ImageError } from './images'
import { podNetwork } from './network'
import { startProbes, type Ctr, type PodRec } from './pod-record'
import { engineAttach, engineExec, engineLogs, execProbe } from './streams'
import { PodVolumes, VolumeError, type ApiGet } from './volumes'
import { formatTime } from '../../../apimachinery/meta-time'

export interface DockerRuntimeOptions {
  docker: Docker
  nodeName: string
  nodeIP: string
  /** this node's directory for pod volumes */
  stateDir: string
  /** the image of each pod's infra container; it must run something that waits forever */
  infraImage: string
  /** the command to run in the infra image when it has none of its own */
  infraCommand?: string[]
  /** the engine network pod IPs come from */
  network: string
  get: ApiGet
  backoff?: CrashBackoffConfig
  log?: Logger
  /** posts the kubelet's events about pods and containers (Pulling, Created, Started, Killing, BackOff …) */
  record?: PodEventRecorder
}

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
  /** pod uids found on the engine without a pod at the last sweep: removed if still so at the next */
  private orphans = new Set<string>()
  private shuttingDown = false
  /** the network chosen for this node's pods, decided on the first sandbox */
  private network: Promise<string> | undefined
  /** the infra image's command, once its image was found (asked once, not per pod) */
  private infra: Promise<string[] | undefined> | undefined

  constructor(private readonly opts: DockerRuntimeOptions) {
    this.docker = opts.docker
    this.backoff = opts.backoff ?? crashBackoffFromEnv()
    this.timers.push(setInterval(() => void this.sweep(), SWEEP_MS), setInterval(() => this.refreshVolumes(), VOLUME_REFRESH_MS))
  }

  onChange(listener: (podUid: string) => void): void {
    this.listeners.push(listener)
  }

  private changed(uid: string): void {
    for (const l of this.listeners) l(uid)
  }

  private event(rec: PodRec, c: Ctr | undefined, type: EventType, reason: string, message: string): void {
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
      this.retryLater(rec, Math.min(RETRY_MAX_MS, RETRY_SANDBOX_MS * 2 ** Math.min(rec.failures++, 8)))
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

  async sync(pod: KubeObject, resolvedEnv: Record<string, Record<string, string>>, configErrors: Record<string, string> = {}): Promise<void> {
    if (this.shuttingDown) return
    const rec = podRecord(this.pods, pod, (p) => this.newRecord(p))
    if (rec.stopping) return
    addEphemeral(rec.containers, pod, (spec) => ({ ...newCtr(spec as DockerContainerSpec, false), ephemeral: true }))
    for (const c of rec.containers) {
      if (c.id && c.running) continue
      c.env = resolvedEnv[c.name]
      c.configError = configErrors[c.name] ?? (c.env ? undefined : `no environment resolved for container "${c.name}"`)
    }
    void this.run(rec, () => this.advance(rec))
  }

  private newRecord(pod: KubeObject): PodRec {
    const initNames = new Set(((pod.spec as { initContainers?: { name: string }[] } | undefined)?.initContainers ?? []).map((c) => c.name))
    const containers = podContainers(pod).map((spec) => newCtr(spec as DockerContainerSpec, initNames.has(spec.name)))
    const uid = pod.metadata.uid ?? ''
    return { uid, pod, containers, stopping: false, adopted: false, infraId: undefined, podIP: undefined, volumes: new PodVolumes(pod, join(this.opts.stateDir, 'pods', uid), this.opts.get), volumesReady: false, chain: Promise.resolve(), retryTimer: undefined, warned: new Set(), failures: 0 }
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
    if (!rec.infraId) await this.createSandbox(rec)
    rec.failures = 0
    try {
      await rec.volumes.setUp(rec.pod, { podIP: rec.podIP, hostIP: this.opts.nodeIP })
      rec.volumesReady = true
    } catch (err) {
      if (!(err instanceof VolumeError)) throw err
      this.warnOnce(rec, 'FailedMount', err.message)
      for (const c of rec.containers) if (!c.id) c.state = { waiting: { reason: c.init ? 'PodInitializing' : 'ContainerCreating', message: err.message } }
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

  private async createSandbox(rec: PodRec): Promise<void> {
    const image = this.opts.infraImage
    try {
      this.infra ??= ensureImage(this.docker, image, 'IfNotPresent').then(() => this.infraCommand(image))
      const command = await this.infra.catch((err: unknown) => {
        this.infra = undefined
        throw err
      })
      const network = isHostNetwork(rec.pod) ? this.opts.network : await this.podNetwork()
      const config = infraConfig(rec.pod, { image, command, nodeName: this.opts.nodeName, network })
      const created = await this.docker.createContainer(config)
      rec.infraId = created.id
      await created.start()
      rec.podIP = isHostNetwork(rec.pod) ? this.opts.nodeIP : containerIP(await created.inspect())
    } catch (err) {
      const message = `Failed to create pod sandbox: ${err instanceof ImageError ? err.message : engineMessage(err)}`
      this.infra = undefined
      if (rec.infraId) await this.remove(rec.infraId)
      rec.infraId = undefined
      this.warnOnce(rec, 'FailedCreatePodSandBox', message)
      throw new Error(message)
    }
  }

  /** The engine network of this node's pods, chosen once the Node has its podCIDR. */
  private podNetwork(): Promise<string> {
    this.network ??= podNetwork(this.docker, this.opts.get, this.opts.nodeName, this.opts.network, this.opts.log)
    return this.network.catch((err: unknown) => {
      this.network = undefined
      throw err
    })
  }

  /** The infra image's own command, else (a plain image such as busybox) one that waits forever. */
  private async infraCommand(image: string): Promise<string[] | undefined> {
    if (this.opts.infraCommand) return this.opts.infraCommand
    const config = (await this.docker.getImage(image).inspect()).Config
    return config?.Cmd?.length || (config?.Entrypoint as string[] | undefined)?.length ? undefined : ['sleep', 'inf']
  }

  private probeContext(rec: PodRec) {
    return {
      host: this.podIP(rec.pod) ?? '127.0.0.1',
      exec: (c: Ctr, command: string[], timeoutMs: number) => execProbe(this.docker, c.id ?? '', command, timeoutMs),
      changed: () => this.changed(rec.uid),
      kill: (c: Ctr, grace: number | undefined, why: string) => {
        this.opts.log?.info(`${podKey(rec.pod)} container ${c.name} ${why} and will be restarted`)
        this.event(rec, c, 'Normal', 'Killing', `Container ${c.name} ${why}, will be restarted`)
        if (c.id) void this.docker.getContainer(c.id).stop({ t: grace ?? gracePeriod(rec.pod) }).catch(() => {})
      },
      log: this.opts.log,
    }
  }

  private async start(rec: PodRec, c: Ctr): Promise<void> {
    if (c.configError) {
      c.state = { waiting: { reason: 'CreateContainerConfigError', message: c.configError } }
      return
    }
    const image = c.spec.image ?? ''
    try {
      let pullStart: number | undefined
      c.imageID = `docker://${await ensureImage(this.docker, image, pullPolicy(c.spec), (i) => {
        pullStart = Date.now()
        this.event(rec, c, 'Normal', 'Pulling', `Pulling image "${i}"`)
      })}`
      if (pullStart === undefined) this.event(rec, c, 'Normal', 'Pulled', `Container image "${image}" already present on machine`)
      else this.event(rec, c, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${((Date.now() - pullStart) / 1000).toFixed(3)}s`)
      c.pull = { streak: 0 }
    } catch (err) {
      if (!(err instanceof ImageError)) throw err
      return this.imageFailed(rec, c, err)
    }
    const env = { ...(c.env ?? {}) }
    for (const e of c.spec.env ?? []) {
      const path = e.valueFrom?.fieldRef?.fieldPath
      if ((path === 'status.podIP' || path === 'status.podIPs') && rec.podIP) env[e.name] = rec.podIP
    }
    let binds: string[]
    try {
      binds = rec.volumes.binds(c.spec)
    } catch (err) {
      c.state = { waiting: { reason: 'CreateContainerConfigError', message: (err as Error).message } }
      return
    }
    const restartCount = c.everStarted ? c.restartCount + 1 : c.restartCount
    let created: Docker.Container
    try {
      const pidOf = c.ephemeral ? this.targetOf(rec, c) : undefined
      created = await this.docker.createContainer(appConfig(rec.pod, c.spec, { nodeName: this.opts.nodeName, infraId: rec.infraId!, env, binds, restartCount, stopTimeout: gracePeriod(rec.pod), pidOf }))
    } catch (err) {
      c.state = { waiting: { reason: 'CreateContainerError', message: engineMessage(err) } }
      this.event(rec, c, 'Warning', 'Failed', `Error: ${engineMessage(err)}`)
      // Retried with the crash-loop back-off (the engine may refuse limits its cgroups cannot enforce).
      const next = nextCrashDelay({ streak: c.crash.streak + 1 }, 0, this.backoff)
      c.crash = next.state
      return this.scheduleRestart(rec, c, next.delayMs)
    }
    this.event(rec, c, 'Normal', 'Created', `Created container ${c.name}`)
    c.restartCount = restartCount
    c.everStarted = true
    if (c.previousId) await this.remove(c.previousId)
    c.previousId = c.id
    c.id = created.id
    c.containerID = `docker://${created.id}`
    c.ready = false
    c.started = false
    try {
      await created.start()
    } catch (err) {
      const info = await created.inspect()
      c.state = { terminated: { ...terminatedState(info), exitCode: 128, reason: 'StartError', message: engineMessage(err) } }
      this.event(rec, c, 'Warning', 'Failed', `Error: ${engineMessage(err)}`)
      return this.afterExit(rec, c, Date.now())
    }
    c.running = true
    // The start call returns once the process runs: its time is the start time, without another round trip.
    c.startedAtMs = Date.now()
    c.state = { running: { startedAt: formatTime(c.startedAtMs) } }
    this.event(rec, c, 'Normal', 'Started', `Started container ${c.name}`)
    this.opts.log?.debug(`started ${podKey(rec.pod)} container ${c.name} (${created.id.slice(0, 12)})`)
    this.watch(rec, c, created.id)
    startProbes(rec, c, this.probeContext(rec))
  }

  /** The engine id of the running container an ephemeral one targets (`kubectl debug --target`), whose processes it is to see. */
  private targetOf(rec: PodRec, c: Ctr): string | undefined {
    const name = (c.spec as EphemeralSpec).targetContainerName
    if (!name) return undefined
    const target = rec.containers.find((x) => x.name === name && !x.ephemeral)
    return target?.running ? target.id : undefined
  }

  private imageFailed(rec: PodRec, c: Ctr, err: ImageError): void {
    c.state = { waiting: { reason: err.reason, message: err.message } }
    this.opts.log?.warn(`${podKey(rec.pod)} container ${c.name}: ${err.message}`)
    if (err.reason === 'ErrImagePull') {
      this.event(rec, c, 'Warning', 'Failed', `Failed to pull image "${c.spec.image}": ${err.message}`)
      this.event(rec, c, 'Warning', 'Failed', 'Error: ErrImagePull')
    } else this.event(rec, c, 'Warning', err.reason, err.message)
    const next = nextCrashDelay({ streak: c.pull.streak + 1 }, 0, this.backoff)
    c.pull = next.state
    const delay = Math.max(next.delayMs, 1_000)
    // As the kubelet: ErrImagePull when the pull fails, ImagePullBackOff while the next attempt waits.
    const backOff = setTimeout(() => {
      if (c.restartTimer !== timer || err.reason !== 'ErrImagePull') return
      c.state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.spec.image}": ${err.reason}: ${err.message}` } }
      this.event(rec, c, 'Normal', 'BackOff', `Back-off pulling image "${c.spec.image}"`)
      this.changed(rec.uid)
    }, Math.min(1_000, delay / 2))
    const timer = setTimeout(() => {
      clearTimeout(backOff)
      c.restartTimer = undefined
      void this.run(rec, () => this.advance(rec))
    }, delay)
    c.restartTimer = timer
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
          if (!this.shuttingDown) setTimeout(() => this.pods.get(rec.uid) === rec && c.id === id && this.watch(rec, c, id), 2_000)
        },
      )
  }

  private async exited(rec: PodRec, c: Ctr, id: string): Promise<void> {
    if (c.id !== id || !c.running) return
    c.running = false
    for (const w of c.probes) w.stop()
    c.probes = []
    let terminated
    try {
      terminated = terminatedState(await this.docker.getContainer(id).inspect())
    } catch {
      terminated = { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', finishedAt: formatTime(Date.now()) }
    }
    c.state = { terminated }
    this.opts.log?.debug(`${podKey(rec.pod)} container ${c.name} exited with ${terminated.exitCode} (${terminated.reason})`)
    this.afterExit(rec, c, Date.now())
  }

  private afterExit(rec: PodRec, c: Ctr, now: number): void {
    c.ready = false
    c.started = false
    const t = 'terminated' in c.state ? c.state.terminated : undefined
    if (!rec.stopping && !this.shuttingDown && !c.ephemeral && shouldRestart(restartPolicyOf(rec.pod), t?.exitCode ?? 1, c.init)) {
      const next = nextCrashDelay(c.crash, now - c.startedAtMs, this.backoff)
      c.crash = next.state
      c.lastState = c.state
      if (next.delayMs > 0) {
        c.state = crashLoopState(next.delayMs, c.name, rec.pod.metadata)
        const m = rec.pod.metadata
        this.event(rec, c, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${m.name}_${m.namespace}(${m.uid})`)
      }
      this.scheduleRestart(rec, c, next.delayMs)
    } else c.finished = true
    if (!rec.stopping) void this.run(rec, () => this.advance(rec))
    this.changed(rec.uid)
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
    if (!rec) return
    rec.stopping = true
    quiesce(rec)
    for (const c of rec.containers) if (!c.running && !('terminated' in c.state)) c.finished = true
    this.changed(podUid)
    await rec.chain.catch(() => {})
    const grace = Math.max(0, Math.round(gracePeriodSeconds))
    // The engine sends the stop signal (SIGTERM), then SIGKILL once the grace period is over.
    await Promise.all(
      rec.containers
        .filter((c) => c.running && c.id)
        .map(async (c) => {
          this.opts.log?.debug(`${podKey(rec.pod)}: killing container ${c.name} with a grace period of ${grace}s`)
          this.event(rec, c, 'Normal', 'Killing', `Stopping container ${c.name}`)
          await this.docker.getContainer(c.id!).stop({ t: grace }).catch(() => {})
          await this.run(rec, () => this.exited(rec, c, c.id!))
        }),
    )
    if (rec.infraId) await this.docker.getContainer(rec.infraId).kill().catch(() => {})
    this.changed(podUid)
  }

  forget(podUid: string): void {
    const rec = this.pods.get(podUid)
    if (!rec) return
    rec.stopping = true
    quiesce(rec)
    this.pods.delete(podUid)
    void this.removePod(podUid).then(() => rec.volumes.tearDown())
  }

  /**
   * Removes every container of a pod. A container another one joined (the sandbox, or the target
   * of an ephemeral container) can only go once its dependents have, so the sandbox goes last and
   * what the engine refused is tried again after the rest.
   */
  private async removePod(podUid: string): Promise<void> {
    try {
      const found = await listOwnContainers(this.docker, this.opts.nodeName, podUid)
      let left = [...found.filter((f) => f.container !== INFRA_NAME), ...found.filter((f) => f.container === INFRA_NAME)].map((f) => f.id)
      for (let pass = 1; left.length; pass++) {
        const last = pass === 3
        const refused: string[] = []
        for (const id of left) if (!(await this.remove(id, last))) refused.push(id)
        left = last ? [] : refused
      }
    } catch (err) {
      this.opts.log?.warn(`removing the containers of pod ${podUid} failed: ${engineMessage(err)}`)
    }
  }

  /** Removes a container; false when the engine refused (said in the log when `report`). */
  private async remove(id: string, report = true): Promise<boolean> {
    return this.docker
      .getContainer(id)
      .remove({ force: true, v: true })
      .then(
        () => true,
        (err) => {
          if (isNoSuchObject(err)) return true
          if (report) this.opts.log?.warn(`removing container ${id.slice(0, 12)} failed: ${engineMessage(err)}`)
          return false
        },
      )
  }

  /** Removes this node's containers whose pod the agent has not held for two sweeps in a row. */
  private async sweep(): Promise<void> {
    if (this.shuttingDown) return
    try {
      const found = await listOwnContainers(this.docker, this.opts.nodeName)
      const unheld = new Set(found.map((f) => f.podUid).filter((uid) => !this.pods.has(uid)))
      for (const uid of unheld) {
        if (!this.orphans.has(uid)) continue
        this.opts.log?.info(`removing the containers of pod ${uid}: it is no longer bound to this node`)
        await this.removePod(uid)
      }
      this.orphans = unheld
    } catch (err) {
      this.opts.log?.debug(`listing the engine's containers failed: ${engineMessage(err)}`)
    }
  }

  /** Rewrites configMap / secret / downwardAPI files of running pods from the API's current objects. */
  private refreshVolumes(): void {
    for (const rec of this.pods.values()) {
      if (rec.stopping || !rec.volumesReady) continue
      void this.run(rec, () => rec.volumes.setUp(rec.pod, { podIP: rec.podIP, hostIP: this.opts.nodeIP }).catch(() => {}))
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
    const open = () => {
      const c = this.container(podUid, opts.container)
      const pod = this.pods.get(podUid)?.pod.metadata.name
      if (opts.previous) {
        const prev = c.previousId
        if (!prev) throw new Error(`previous terminated container "${c.name}" in pod "${pod}" not found`)
        return engineLogs(this.docker, prev, opts, false, !!c.spec.tty)
      }
      if (!c.id) {
        const reason = 'waiting' in c.state ? c.state.waiting.reason : 'ContainerCreating'
        throw new Error(`container "${c.name}" in pod "${pod}" is waiting to start: ${reason}`)
      }
      return engineLogs(this.docker, c.id, opts, c.running, !!c.spec.tty)
    }
    return (async function* () {
      yield* open()
    })()
  }

  async exec(podUid: string, container: string, command: string[], streams: ExecStreams): Promise<number> {
    const c = this.container(podUid, container)
    if (!c.running || !c.id) throw new Error(`container ${container} is not running`)
    if (command.length === 0) throw new Error('exec needs a command')
    return engineExec(this.docker, c.id, command, streams)
  }

  async attach(podUid: string, container: string, streams: ExecStreams): Promise<number> {
    const c = this.container(podUid, container)
    if (!c.running || !c.id) throw new Error(`container ${container} is not running`)
    return engineAttach(this.docker, c.id, streams, !!c.spec.tty)
  }
}

/** No retry, restart or probe of the pod runs any more. */
function quiesce(rec: PodRec): void {
  if (rec.retryTimer) clearTimeout(rec.retryTimer)
  rec.retryTimer = undefined
  for (const c of rec.containers) {
    if (c.restartTimer) clearTimeout(c.restartTimer)
    c.restartTimer = undefined
    for (const w of c.probes) w.stop()
  }
}

/** A container's record before its first instance. */
function newCtr(spec: DockerContainerSpec, init: boolean): Ctr {
  return {
    ...freshRecord(spec, init),
    imageID: undefined,
    id: undefined,
    running: false,
    startedAtMs: 0,
    previousId: undefined,
    crash: { streak: 0 },
    pull: { streak: 0 },
    restartTimer: undefined,
    probes: [],
    finished: false,
  }
}

export function podKey(pod: KubeObject): string {
  return `pod ${pod.metadata.namespace}/${pod.metadata.name}`
}
