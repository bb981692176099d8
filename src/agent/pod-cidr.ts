/** The node's pod CIDR, handed to a runtime that gives pods addresses of their own. */
import { podCidrsOf } from '../apimachinery/cidr'
import type { KubeObject } from '../apimachinery/types'
import type { ApiClient } from './api-client'
import type { Logger } from './log'
import { LEASE_RETRY, RetryBackoff } from './runtime/backoff'
import type { ContainerRuntime } from './runtime/types'

/** Keeps a runtime's pod address range equal to its Node's spec.podCIDR. */
export class PodCIDRFollower {
  private current: string | undefined

  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly log: Logger,
  ) {}

  /** Whether the runtime cannot start pods until the Node has a pod CIDR. */
  get needed(): boolean {
    return !!this.runtime.setPodCIDR && this.current === undefined
  }

  /** Takes the pod CIDR of the Node as read from the API, if it has one and it changed. */
  observe(node: KubeObject | undefined): void {
    const cidr = podCidrsOf(node)[0]
    if (!cidr || cidr === this.current || !this.runtime.setPodCIDR) return
    try {
      this.runtime.setPodCIDR(cidr)
      this.current = cidr
      this.log.info(`pod CIDR ${cidr}`)
    } catch (err) {
      this.log.warn(`cannot use pod CIDR ${cidr}: ${(err as Error).message}`)
    }
  }

  /**
   * Reads the Node until it has a pod CIDR (node IPAM assigns it just after registration; with the
   * cluster CIDR used up, that waits until a block is freed, as a kubelet waits for its network).
   */
  async wait(
    getNode: () => Promise<KubeObject | undefined>,
    stopped: () => boolean,
    nodeName: string,
  ): Promise<void> {
    const backoff = new RetryBackoff(LEASE_RETRY)
    let warned = false
    while (this.needed && !stopped()) {
      try {
        this.observe(await getNode())
      } catch (err) {
        this.log.debug(`reading node ${nodeName} failed: ${(err as Error).message}`)
      }
      if (!this.needed) return
      const delay = backoff.next()
      if (!warned || backoff.attempts % 20 === 0)
        this.log.warn(
          `node ${nodeName} has no pod CIDR (spec.podCIDR) yet: no pod starts before it has one`,
        )
      warned = true
      await new Promise((r) => setTimeout(r, delay))
    }
  }
}
