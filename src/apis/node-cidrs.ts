import { formatIPv4, parseCidr, type Cidr } from '../apimachinery/cidr'

/** kube-controller-manager's --cluster-cidr as kubeadm's flannel and kind set it up. */
export const DEFAULT_CLUSTER_CIDR = '10.244.0.0/16'
/** --node-cidr-mask-size for IPv4. */
export const DEFAULT_NODE_CIDR_MASK_SIZE = 24
/** upstream's CIDR sets refuse to split a cluster CIDR into more than 2^16 node blocks */
const MAX_PREFIX_DIFFERENCE = 16

/** How node pod CIDRs are cut: blocks of `/maskSize` out of `cluster`. */
export interface NodeCidrSettings {
  cluster: Cidr
  maskSize: number
}

/**
 * CLUSTER_CIDR and NODE_CIDR_MASK_SIZE, checked: an IPv4 block, and a node mask at least as long as
 * the cluster's and at most 16 bits longer (and short enough to leave pods some addresses).
 * Throws an Error naming the setting when either is wrong.
 */
export function nodeCidrSettings(
  clusterCidr: string | undefined,
  maskSize: string | undefined,
): NodeCidrSettings {
  const clusterText = clusterCidr?.trim() || DEFAULT_CLUSTER_CIDR
  const cluster = parseCidr(clusterText)
  if (!cluster)
    throw new Error(
      `CLUSTER_CIDR must be an IPv4 CIDR such as ${DEFAULT_CLUSTER_CIDR}, got '${clusterText}'`,
    )
  const maskText = maskSize?.trim() || String(DEFAULT_NODE_CIDR_MASK_SIZE)
  const mask = /^\d{1,2}$/.test(maskText) ? Number(maskText) : NaN
  if (!(mask >= cluster.prefix && mask <= 30))
    throw new Error(
      `NODE_CIDR_MASK_SIZE must be a prefix length from ${cluster.prefix} (that of CLUSTER_CIDR ${cluster.text}) to 30, got '${maskText}'`,
    )
  if (mask - cluster.prefix > MAX_PREFIX_DIFFERENCE)
    throw new Error(
      `NODE_CIDR_MASK_SIZE ${mask} would cut CLUSTER_CIDR ${cluster.text} into more than 2^${MAX_PREFIX_DIFFERENCE} node CIDRs`,
    )
  return { cluster, maskSize: mask }
}

/**
 * The first node CIDR not in `used`, or undefined when every one is taken. Lowest first, so that
 * the allocation is a function of the stored Nodes alone.
 */
export function pickNodeCidr(
  settings: NodeCidrSettings,
  used: ReadonlySet<string>,
): string | undefined {
  const block = 2 ** (32 - settings.maskSize)
  const count = settings.cluster.size / block
  for (let i = 0; i < count; i++) {
    const text = `${formatIPv4(settings.cluster.base + i * block)}/${settings.maskSize}`
    if (!used.has(text)) return text
  }
  return undefined
}
