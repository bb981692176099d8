/** The agent's Node object: registered at start, its status posted when it changes or is due. */
import { isAlreadyExists, resourcePath, type ApiClient } from './api-client'
import type { Logger } from './log'
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

export class NodeRegistration {
  /** the Node's uid once registered (the Lease's owner) */
  uid: string | undefined
  private lastPostMs: number | undefined
  private failing = false
  private readonly name: string

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
  }

  get path(): string {
    return resourcePath({ resource: 'nodes', name: this.name })
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
        this.uid = created.metadata.uid
        this.podCIDR.observe(created)
        this.lastPostMs = Date.now()
        this.log.info(`registered node ${this.name}`)
        return
      } catch (err) {
        if (!isAlreadyExists(err)) throw err
        return this.register()
      }
    }
    this.uid = existing.metadata.uid
    this.podCIDR.observe(existing)
    const labels = labelPatch(existing.metadata.labels, nodeLabels(this.identity))
    const annotations = labelPatch(existing.metadata.annotations, this.identity.annotations ?? {})
    if (labels || annotations)
      await this.api.mergePatch(this.path, { metadata: { labels, annotations } })
    await this.postStatus(existing.status as NodeStatus | undefined, true)
    this.log.info(`node ${this.name} already registered; status updated`)
  }

  private async postStatus(current: NodeStatus | undefined, force = false): Promise<void> {
    const now = Date.now()
    const next = nodeStatus(this.identity, now, current)
    if (!force && !shouldPostNodeStatus(current, next, this.lastPostMs, now)) return
    await this.api.mergePatch(`${this.path}/status`, { status: next })
    this.lastPostMs = now
  }

  /** Posts the node status when it changed or is due; registers the Node again when it was deleted. */
  async updateStatus(): Promise<void> {
    if (this.closed()) return
    try {
      const node = await this.api.getOptional(this.path)
      if (!node) {
        this.log.warn(`node ${this.name} was deleted from the API; registering it again`)
        await this.register()
        return
      }
      this.uid = node.metadata.uid
      this.podCIDR.observe(node)
      await this.postStatus(node.status as NodeStatus | undefined)
      if (this.failing) this.log.info(`node ${this.name} status updates work again`)
      this.failing = false
    } catch (err) {
      if (!this.failing)
        this.log.warn(
          `updating node ${this.name} status failed (retrying every ${this.intervalMs() / 1000}s): ${(err as Error).message}`,
        )
      this.failing = true
    }
  }
}
