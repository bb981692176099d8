/** The node's pod CIDR, handed to a runtime that gives pods addresses of their own. */
import { podCidrsOf } from '../apimachinery/cidr'
import type { KubeObject } from '../apimachinery/types'
import type { Logger } from './log'
import type { ContainerRuntime } from './runtime/types'

/** When the agent first says it waits for a pod CIDR, and how often it says so again. */
const WAITING_NOTICE_MS = 1_000
const WAITING_REMINDER_MS = 120_000

/** Keeps a runtime's pod address range equal to its Node's spec.podCIDR. */
export class PodCIDRFollower {
  private current: string | undefined
  private readonly waiters: (() => void)[] = []

  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly log: Logger,
  ) {}

  /** Whether the runtime cannot start pods until the Node has a pod CIDR. */
  get needed(): boolean {
    return !!this.runtime.setPodCIDR && this.current === undefined
  }

  /** Takes the pod CIDR of the Node as the API shows it, if it has one and it changed. */
  observe(node: KubeObject | undefined): void {
    const cidr = podCidrsOf(node)[0]
    if (!cidr || cidr === this.current || !this.runtime.setPodCIDR) return
    try {
      this.runtime.setPodCIDR(cidr)
      this.current = cidr
      this.log.info(`pod CIDR ${cidr}`)
      this.release()
    } catch (err) {
      this.log.warn(`cannot use pod CIDR ${cidr}: ${(err as Error).message}`)
    }
  }

  /**
   * Resolves once the runtime has a pod CIDR from an observed Node (node IPAM assigns it just after
   * registration; with the cluster CIDR used up, that waits until a block is freed, as a kubelet
   * waits for its network), or on release().
   */
  async wait(nodeName: string): Promise<void> {
    if (!this.needed) return
    let timer: NodeJS.Timeout
    const warn = () => {
      this.log.warn(
        `node ${nodeName} has no pod CIDR (spec.podCIDR) yet: no pod starts before it has one`,
      )
      timer = setTimeout(warn, WAITING_REMINDER_MS).unref()
    }
    timer = setTimeout(warn, WAITING_NOTICE_MS).unref()
    await new Promise<void>((resolve) => this.waiters.push(resolve))
    clearTimeout(timer)
  }

  /** Ends every wait (the agent stops). */
  release(): void {
    for (const resolve of this.waiters.splice(0)) resolve()
  }
}
