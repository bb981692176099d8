/**
 * The engine network pod IPs come from: a bridge network of this node with the subnet of its
 * `spec.podCIDR` (made once, kept across agent restarts); when the engine refuses it (an
 * overlapping subnet, a rootless engine), the engine's default bridge. Until node IPAM has given
 * the Node its podCIDR, no pod network is chosen: the sandbox waits and is tried again.
 */
import type Docker from 'dockerode'
import type { Logger } from '../../log'
import { LABEL_MANAGED, LABEL_NODE, MANAGED_BY } from './container-config'
import { engineMessage, isNoSuchObject } from './engine'
import type { ApiGet } from './volumes'

/** The name of this node's pod network on the engine. */
export function nodeNetworkName(nodeName: string): string {
  return `edgeplane-${nodeName}`
}

export async function podNetwork(
  docker: Docker,
  get: ApiGet,
  nodeName: string,
  fallback: string,
  log?: Logger,
): Promise<string> {
  const cidr = ((await get(`/api/v1/nodes/${nodeName}`))?.spec as { podCIDR?: string } | undefined)
    ?.podCIDR
  if (!cidr)
    throw new Error(
      `node ${nodeName} has no spec.podCIDR yet (node IPAM gives it one once the node has registered)`,
    )
  const name = nodeNetworkName(nodeName)
  try {
    const existing = await docker.getNetwork(name).inspect()
    const subnets = ((existing.IPAM?.Config ?? []) as { Subnet?: string }[]).map((c) => c.Subnet)
    if (subnets.includes(cidr)) return name
    log?.warn(
      `engine network ${name} has subnet ${subnets.join(', ')}, not the node's podCIDR ${cidr}; pods get their IPs from ${fallback}`,
    )
    return fallback
  } catch (err) {
    if (!isNoSuchObject(err)) return fallback
  }
  try {
    await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      IPAM: { Driver: 'default', Config: [{ Subnet: cidr }] },
      Labels: { [LABEL_MANAGED]: MANAGED_BY, [LABEL_NODE]: nodeName },
    })
    log?.info(`pods of node ${nodeName} get their IPs from engine network ${name} (${cidr})`)
    return name
  } catch (err) {
    log?.warn(
      `creating engine network ${name} for podCIDR ${cidr} failed (${engineMessage(err)}); pods get their IPs from ${fallback}`,
    )
    return fallback
  }
}
