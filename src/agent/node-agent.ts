/**
 * One node: registers its Node, keeps its Lease fresh, watches the pods bound to it, drives them
 * through the runtime and reports their status. Decisions come from the pure modules
 * (sync-pods, pod-status, node-status); this file only wires them to the API and the runtime, with
 * the Node's registration, pod starts and status reports each in a file beside it.
 */
import type { KubeObject } from '../apimachinery/types'
import { ApiStatusError, isConflict, isNotFound, type ApiClient } from './api-client'
import { hasNewEphemeral } from './runtime/ephemeral'
import { DEFAULT_LEASE_SECONDS, LeaseRenewer, leaseInterval, publishedGraceSeconds } from './lease'
import { LocalPathSweeper } from './local-path'
import type { Logger } from './log'
import { NodeRegistration } from './node-registration'
import type { NodeIdentity } from './node-status'
import { PodCIDRFollower } from './pod-cidr'
import { PodStarter } from './pod-start'
import { isNewer, podPath, PodStatusReporter } from './pod-status-report'
import { ListWatch } from './pod-watch'
import type { ManagedRuntime } from './runtime/types'
import { admitPods, decidePod, isTerminal, type SyncAction } from './sync-pods'
import { WorkQueue } from './work-queue'

export interface NodeAgentOptions {
  api: ApiClient
  identity: NodeIdentity
  runtime: ManagedRuntime
  log: Logger
  /**
   * how often the Lease is renewed (and the node status checked); unset, a quarter of the control
   * plane's published grace period, at most kubelet's 10 s. Slower than that quarter is refused.
   */
  leaseSeconds?: number
  /** how often every pod is looked at again even without an event */
  resyncMs?: number
  /** pods handled at once */
  concurrency?: number
  /** give containers the service environment variables (a runtime that runs nothing needs none) */
  serviceEnv?: boolean
  /** the directory of this node's local-path volumes; `simulated`: no directory is made or removed */
  localPath?: { root: string; simulated: boolean }
}

const DEFAULT_RESYNC_MS = 10_000
const RETRY_AFTER_ERROR_MS = 1_000
const RETRY_MAX_MS = 30_000

export class NodeAgent {
  readonly name: string
  readonly runtime: ManagedRuntime
  private readonly api: ApiClient
  private readonly log: Logger
  private readonly identity: NodeIdentity
  private readonly pods = new Map<string, KubeObject>()
  /** namespace/name of every pod seen, kept after its deletion for the log lines that follow */
  private readonly podNames = new Map<string, string>()
  private readonly queue: WorkQueue
  private readonly watch: ListWatch
  private readonly lease: LeaseRenewer
  private readonly podCIDR: PodCIDRFollower
  private readonly node: NodeRegistration
  private readonly localPath: LocalPathSweeper | undefined
  private readonly starter: PodStarter
  private readonly reporter: PodStatusReporter
  private readonly stopping = new Map<string, number>()
  private readonly stopped = new Set<string>()
  private readonly retry = new Set<string>()
  private readonly deleting = new Set<string>()
  private readonly failures = new Map<
    string,
    { count: number; timer: NodeJS.Timeout | undefined }
  >()
  private readonly timers: NodeJS.Timeout[] = []
  private closed = false

  constructor(private readonly opts: NodeAgentOptions) {
    this.name = opts.identity.name
    this.runtime = opts.runtime
    this.api = opts.api
    this.log = opts.log
    this.identity = opts.identity
    this.queue = new WorkQueue((uid) => this.reconcile(uid), opts.concurrency ?? 8)
    this.watch = new ListWatch(
      this.api,
      { path: '/api/v1/pods', params: { fieldSelector: `spec.nodeName=${this.name}` } },
      {
        replace: (items) => this.replacePods(items),
        event: (type, pod) => this.podEvent(type, pod),
      },
      this.log,
    )
    this.lease = new LeaseRenewer(
      this.api,
      this.name,
      (opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000,
      this.log,
      () => this.node.uid,
    )
    this.runtime.onChange((uid) => this.queue.add(uid))
    this.podCIDR = new PodCIDRFollower(this.runtime, this.log)
    const closed = () => this.closed
    this.node = new NodeRegistration(
      this.api,
      this.identity,
      this.log,
      this.podCIDR,
      () => this.lease.intervalMs,
      closed,
    )
    this.localPath =
      opts.localPath &&
      new LocalPathSweeper(
        this.api,
        this.name,
        opts.localPath.root,
        this.log,
        opts.localPath.simulated,
      )
    this.starter = new PodStarter(
      this.api,
      this.runtime,
      this.identity,
      this.log,
      !!opts.serviceEnv,
      this.retry,
      closed,
    )
    this.reporter = new PodStatusReporter(
      this.api,
      this.runtime,
      this.identity,
      this.log,
      this.pods,
      this.stopped,
    )
  }

  /**
   * Registers the Node (retrying until the API answers), then starts the heartbeat and the pod
   * watch. Throws LeaseIntervalError when --lease-seconds is too slow for the control plane.
   */
  async start(): Promise<void> {
    const grace = await publishedGraceSeconds(this.api, this.log)
    this.lease.intervalMs = leaseInterval(grace, this.opts.leaseSeconds) * 1000
    this.log.debug(
      `lease renewed every ${this.lease.intervalMs / 1000}s (node monitor grace period ${grace ?? 40}s)`,
    )
    await this.node.registerUntilDone()
    if (this.closed) return
    this.lease.start()
    this.node.follow()
    this.localPath?.start()
    await this.podCIDR.wait(this.name)
    if (this.closed) return
    this.watch.start()
    const statusTimer = setInterval(() => void this.node.updateStatus(), this.lease.intervalMs)
    const resyncTimer = setInterval(() => this.resync(), this.opts.resyncMs ?? DEFAULT_RESYNC_MS)
    this.timers.push(statusTimer, resyncTimer)
  }

  /** Resolves once the pods bound to the node have been listed. */
  whenSynced(): Promise<void> {
    return this.watch.whenSynced()
  }

  /** Stops watching and heartbeating; containers are the caller's business (runtime.shutdown). */
  stop(): void {
    this.closed = true
    for (const t of this.timers) clearInterval(t)
    for (const f of this.failures.values()) clearTimeout(f.timer)
    this.queue.close()
    this.watch.stop()
    this.node.stop()
    this.localPath?.stop()
    this.podCIDR.release()
    this.lease.stop()
  }

  /** The uid of a pod on this node by namespace and name, for the logs/exec tunnel. */
  podUid(namespace: string, name: string): string | undefined {
    for (const [uid, pod] of this.pods)
      if (pod.metadata.namespace === namespace && pod.metadata.name === name) return uid
    return undefined
  }

  private replacePods(items: KubeObject[]): void {
    const fresh = new Set<string>()
    for (const pod of items) {
      const uid = pod.metadata.uid ?? ''
      fresh.add(uid)
      this.pods.set(uid, pod)
      this.podNames.set(uid, `${pod.metadata.namespace}/${pod.metadata.name}`)
    }
    for (const uid of [...this.pods.keys()]) if (!fresh.has(uid)) this.pods.delete(uid)
    this.resync()
  }

  private podEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: KubeObject): void {
    const uid = pod.metadata.uid ?? ''
    this.podNames.set(uid, `${pod.metadata.namespace}/${pod.metadata.name}`)
    if (type === 'DELETED') this.pods.delete(uid)
    else if (isNewer(pod, this.pods.get(uid))) this.pods.set(uid, pod)
    this.queue.add(uid)
  }

  private resync(): void {
    for (const uid of this.pods.keys()) this.queue.add(uid)
    for (const uid of this.runtime.podUids()) this.queue.add(uid)
  }

  private async reconcile(uid: string): Promise<void> {
    if (this.closed) return
    const pod = this.pods.get(uid)
    const held = this.runtime.status(uid) !== undefined
    if (!pod && !held) this.podNames.delete(uid)
    const view = held
      ? { stoppingGrace: this.stopping.get(uid), stopped: this.stopped.has(uid) }
      : undefined
    let admission
    if (pod && !held && !isTerminal(pod) && !pod.metadata.deletionTimestamp) {
      const heldUids = new Set(this.runtime.podUids())
      admission = admitPods([...this.pods.values()], heldUids, this.identity.capacity).get(uid)
    }
    // A pod given new ephemeral containers (kubectl debug) is handed to the runtime again.
    const retry =
      this.retry.has(uid) || (!!pod && held && hasNewEphemeral(pod, this.runtime.status(uid)))
    const actions = decidePod({ uid, pod, runtime: view, admission, retry })
    const what = pod ? `pod ${pod.metadata.namespace}/${pod.metadata.name}` : `pod ${uid}`
    try {
      for (const action of actions) await this.execute(uid, action)
      const failed = this.failures.get(uid)
      if (failed) {
        clearTimeout(failed.timer)
        this.failures.delete(uid)
        this.log.debug(`syncing ${what} works again`)
      }
    } catch (err) {
      if (this.closed) return
      // One pending retry per pod, further apart after each failure. An answer from the API is
      // logged (first time, then every tenth); an unreachable API is already reported by the
      // lease and the watch, once for the node rather than once per pod.
      const failed = this.failures.get(uid) ?? { count: 0, timer: undefined }
      failed.count++
      const delay = Math.min(
        RETRY_MAX_MS,
        RETRY_AFTER_ERROR_MS * 2 ** Math.min(failed.count - 1, 10),
      )
      const message = `syncing ${what} failed (attempt ${failed.count}, retrying in ${delay} ms): ${(err as Error).message}`
      if (err instanceof ApiStatusError && (failed.count === 1 || failed.count % 10 === 0))
        this.log.warn(message)
      else this.log.debug(message)
      if (failed.timer) clearTimeout(failed.timer)
      failed.timer = setTimeout(() => {
        failed.timer = undefined
        this.queue.add(uid)
      }, delay)
      failed.timer.unref()
      this.failures.set(uid, failed)
    }
  }

  private async execute(uid: string, action: SyncAction): Promise<void> {
    switch (action.type) {
      case 'reject': {
        const { pod } = action
        this.log.warn(
          `rejecting pod ${pod.metadata.namespace}/${pod.metadata.name}: ${action.message}`,
        )
        await this.reporter.patch(pod, {
          phase: 'Failed',
          reason: action.reason,
          message: action.message,
        })
        return
      }
      case 'start':
        return this.starter.start(action.pod)
      case 'report':
        return this.reporter.report(action.pod)
      case 'stop': {
        const { pod, gracePeriodSeconds } = action
        this.stopping.set(uid, gracePeriodSeconds)
        const running = (this.runtime.status(uid) ?? []).some((c) => 'running' in c.state)
        if (running)
          this.log.info(
            `stopping pod ${pod.metadata.namespace}/${pod.metadata.name} (grace period ${gracePeriodSeconds}s)`,
          )
        void this.runtime.stop(uid, gracePeriodSeconds).then(
          () => {
            this.stopping.delete(uid)
            // A force deletion may have removed the pod meanwhile; then there is nothing to record.
            if (this.runtime.status(uid) === undefined) return
            this.stopped.add(uid)
            this.queue.add(uid)
          },
          (err: Error) =>
            this.log.error(
              `stopping pod ${pod.metadata.namespace}/${pod.metadata.name} failed: ${err.message}`,
            ),
        )
        return
      }
      case 'delete': {
        const { pod } = action
        if (this.deleting.has(uid)) return
        this.deleting.add(uid)
        try {
          await this.api.delete(podPath(pod), {
            apiVersion: 'v1',
            kind: 'DeleteOptions',
            gracePeriodSeconds: 0,
            preconditions: { uid },
          })
          this.log.info(`pod ${pod.metadata.namespace}/${pod.metadata.name} terminated and deleted`)
        } catch (err) {
          // Gone already, or a new pod took the name: either way this one is finished.
          if (!isNotFound(err) && !isConflict(err)) {
            this.deleting.delete(uid)
            throw err
          }
        }
        return
      }
      case 'remove': {
        const running = (this.runtime.status(uid) ?? []).some((c) => 'running' in c.state)
        if (running)
          this.log.info(
            `pod ${this.podNames.get(uid) ?? uid} is gone from the API while running; stopping it (grace period ${action.gracePeriodSeconds}s)`,
          )
        this.stopping.set(uid, action.gracePeriodSeconds)
        await this.runtime.stop(uid, action.gracePeriodSeconds)
        this.runtime.forget(uid)
        this.stopping.delete(uid)
        this.stopped.delete(uid)
        this.retry.delete(uid)
        this.deleting.delete(uid)
        this.podNames.delete(uid)
        return
      }
    }
  }
}
