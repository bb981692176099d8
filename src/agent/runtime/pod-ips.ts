import { formatIPv4, parseCidr, parseIPv4, type Cidr } from '../../apimachinery/cidr'

/**
 * The addresses a node may give its pods: its spec.podCIDR without the network address, the first
 * host address (where a bridge or gateway sits) and the broadcast address.
 */
export function podAddressRange(
  podCIDR: string,
): { first: number; count: number; cidr: Cidr } | undefined {
  const cidr = parseCidr(podCIDR)
  if (!cidr || cidr.size < 4) return undefined
  return { first: cidr.base + 2, count: cidr.size - 3, cidr }
}

/**
 * The next address of the node's pod CIDR not in `taken`, looking from the `from`-th address on
 * (wrapping), so that a freed address is not handed out again at once. Undefined when all are taken.
 */
export function nextFreePodIP(
  podCIDR: string,
  taken: ReadonlySet<string>,
  from = 0,
): string | undefined {
  const range = podAddressRange(podCIDR)
  if (!range) return undefined
  for (let i = 0; i < range.count; i++) {
    const ip = formatIPv4(range.first + ((from + i) % range.count))
    if (!taken.has(ip)) return ip
  }
  return undefined
}

/** Whether `ip` is one the node may give a pod. */
export function inPodRange(podCIDR: string, ip: string): boolean {
  const range = podAddressRange(podCIDR)
  const n = parseIPv4(ip)
  return !!range && n !== undefined && n >= range.first && n < range.first + range.count
}

/**
 * Pod IPs of one node, unique within its spec.podCIDR (which the control plane's node IPAM makes
 * unique in the cluster). A pod keeps its address until it is released.
 */
export class NodePodIPs {
  private readonly byUid = new Map<string, string>()
  private readonly taken = new Set<string>()
  private cursor = 0
  private cidr: string | undefined

  /** The node's spec.podCIDR; addresses already handed out stay with their pods. */
  setPodCIDR(podCIDR: string): void {
    if (!podAddressRange(podCIDR))
      throw new Error(`pod CIDR ${podCIDR} is not an IPv4 block with room for pods`)
    this.cidr = podCIDR
  }

  get podCIDR(): string | undefined {
    return this.cidr
  }

  /** The pod's IP: its current one, else `preferred` when free and in range, else the next free one. */
  allocate(uid: string, preferred?: string): string {
    const have = this.byUid.get(uid)
    if (have) return have
    if (!this.cidr) throw new Error('the node has no pod CIDR yet (spec.podCIDR)')
    let ip =
      preferred && inPodRange(this.cidr, preferred) && !this.taken.has(preferred)
        ? preferred
        : undefined
    if (!ip) {
      ip = nextFreePodIP(this.cidr, this.taken, this.cursor)
      if (!ip) throw new Error(`the node's pod CIDR ${this.cidr} is full`)
      this.cursor =
        (parseIPv4(ip)! - podAddressRange(this.cidr)!.first + 1) % podAddressRange(this.cidr)!.count
    }
    this.byUid.set(uid, ip)
    this.taken.add(ip)
    return ip
  }

  release(uid: string): void {
    const ip = this.byUid.get(uid)
    if (!ip) return
    this.byUid.delete(uid)
    this.taken.delete(ip)
  }
}

/** The pod IPs of every node one agent runs (several when simulating), each from its own pod CIDR. */
export class PodIPAllocator {
  private readonly nodes = new Map<string, NodePodIPs>()

  of(node: string): NodePodIPs {
    let ips = this.nodes.get(node)
    if (!ips) this.nodes.set(node, (ips = new NodePodIPs()))
    return ips
  }
}
