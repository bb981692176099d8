/**
 * The agent's Node object: registered at start, then followed by a watch of `metadata.name=<node>`
 * (as kubelet's node informer); its status is posted when it changes or is due, judged from that
 * copy, and it is registered again once the watch shows it deleted.
 */
import type { KubeObject } from '../apimachinery/types'
import { isAlreadyExists, resourcePath, type ApiClient } from './api-client'
import type { Logger } from './log'
import { nodeAfterEvent, ownNode } from './node-cache'
import {
  labelPatch,
  nodeLabels,
  nodeObject,
  nodeStatus,
  shouldPostNodeStatus,
  type NodeIdentity,
  type NodeStatus,
} from './node-status'
import type { PodCIDRFollower } from './pod-cidr'
import { ListWatch } from './pod-watch'
import { RetryBackoff, WATCH_RECONNECT } from './runtime/backoff'

export class NodeRegistration {
  /** the Node's uid once registered (the Lease's owner) */
  uid: string | undefined
  private lastPostMs: number | undefined
  private failing = false
  private updating = false
  private readonly name: string
  /** the Node as the watch (or the answer to a write) last showed it */
  private cached: KubeObject | undefined
  /** whether the watch has listed: from then on the copy alone says whether the Node exists */
  private synced = false
  private readonly watch: ListWatch

  constructor(
    private readonly api: ApiClient,
    private readonly identity: NodeIdentity,
    private readonly log: Logger,
    private readonly podCIDR: PodCIDRFollower,
    /** how often the status is checked, for the log */
    private readonly intervalMs: () => number,
    private readonly closed: () => boolean,
  ) {
    this.name = identity.name
    this.watch = new ListWatch(
      api,
      { path: '/api/v1/nodes', params: { fieldSelector: `metadata.name=${this.name}` } },
      {
        replace: (items) => {
          this.synced = true
          this.observe(ownNode(items, this.name))
        },
        event: (type, node) => this.observe(nodeAfterEvent(this.cached, type, node, this.name)),
      },
      log,
    )
  }

  get path(): string {
    return resourcePath({ resource: 'nodes', name: this.name })
  }

  /** Registers the Node, retrying until the API answers or the agent stops. */
  async registerUntilDone(): Promise<void> {
    const backoff = new RetryBackoff(WATCH_RECONNECT)
    while (!this.closed()) {
      try {
        return await this.register()
      } catch (err) {
        const delay = backoff.next()
        this.log.warn(
          `registering node ${this.name} failed (retrying in ${delay} ms): ${(err as Error).message}`,
        )
        await new Promise((r) => setTimeout(r, delay))
      }
    }
  }

  /** Follows the Node with a watch. */
  follow(): void {
    this.watch.start()
  }

  stop(): void {
    this.watch.stop()
  }

  /** Creates the Node, or brings an existing one's labels, annotations and status up to date. */
  async register(): Promise<void> {
    const existing = await this.api.getOptional(this.path)
    if (!existing) {
      try {
        const created = await this.api.create(
          resourcePath({ resource: 'nodes' }),
          nodeObject(this.identity, Date.now()),
        )
        this.remember(created)
        this.lastPostMs = Date.now()
        this.log.info(`registered node ${this.name}`)
        return
      } catch (err) {
        if (!isAlreadyExists(err)) throw err
        return this.register()
      }
    }
    this.remember(existing)
    const labels = labelPatch(existing.metadata.labels, nodeLabels(this.identity))
    const annotations = labelPatch(existing.metadata.annotations, this.identity.annotations ?? {})
    if (labels || annotations)
      this.remember(await this.api.mergePatch(this.path, { metadata: { labels, annotations } }))
    await this.postStatus(existing.status as NodeStatus | undefined, true)
    this.log.info(`node ${this.name} already registered; status updated`)
  }

  private async postStatus(current: NodeStatus | undefined, force = false): Promise<void> {
    const now = Date.now()
    const next = nodeStatus(this.identity, now, current)
    if (!force && !shouldPostNodeStatus(current, next, this.lastPostMs, now)) return
    this.remember(await this.api.mergePatch(`${this.path}/status`, { status: next }))
    this.lastPostMs = now
  }

  /**
   * Posts the node status when it changed or is due, judged from the watched copy (read from the
   * API only before the watch has one); registers the Node again when it was deleted.
   */
  async updateStatus(): Promise<void> {
    if (this.closed() || this.updating) return
    this.updating = true
    try {
      const node = this.cached ?? (this.synced ? undefined : await this.api.getOptional(this.path))
      if (!node) {
        if (!this.synced)
          this.log.warn(`node ${this.name} was deleted from the API; registering it again`)
        await this.register()
      } else await this.postStatus(node.status as NodeStatus | undefined)
      if (this.failing) this.log.info(`node ${this.name} status updates work again`)
      this.failing = false
    } catch (err) {
      if (!this.failing)
        this.log.warn(
          `updating node ${this.name} status failed (retrying every ${this.intervalMs() / 1000}s): ${(err as Error).message}`,
        )
      this.failing = true
    } finally {
      this.updating = false
    }
  }

  /** A copy of the Node a write answered with. */
  private remember(node: KubeObject): void {
    this.take(nodeAfterEvent(this.cached, 'MODIFIED', node, this.name))
  }

  /** What the watch shows: a Node gone is registered again at once. */
  private observe(node: KubeObject | undefined): void {
    const had = this.cached
    this.take(node)
    if (node || !this.synced || this.closed()) return
    if (had) this.log.warn(`node ${this.name} was deleted from the API; registering it again`)
    void this.updateStatus()
  }

  private take(node: KubeObject | undefined): void {
    this.cached = node
    if (!node) return
    this.uid = node.metadata.uid
    this.podCIDR.observe(node)
  }
}
