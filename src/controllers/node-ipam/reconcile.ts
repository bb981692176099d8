import { podCidrsOf } from '../../apimachinery/cidr'
import { nodes } from '../resources'
import type { Cache, Outcome } from '../runtime/types'
import { pickNodeCidr, type NodeCidrSettings } from '../../apis/node-cidrs'

/**
 * Upstream's range allocator for one Node: a Node without a pod CIDR gets the first free block of
 * the cluster CIDR, in spec.podCIDR and spec.podCIDRs. The blocks in use are those the stored Nodes
 * hold, so a deleted Node's block is free again as soon as it is gone. With none left, the Node
 * gets a CIDRNotAvailable event and is tried again on the next pass.
 */
export function reconcileNodeCidr(name: string, cache: Cache, settings: NodeCidrSettings): Outcome {
  const node = cache.get(nodes, undefined, name)
  if (!node || node.metadata.deletionTimestamp || podCidrsOf(node).length) return { actions: [] }
  const used = new Set(cache.list(nodes).flatMap(podCidrsOf))
  const cidr = pickNodeCidr(settings, used)
  if (!cidr) {
    return {
      actions: [
        {
          type: 'event',
          involved: node,
          eventType: 'Normal',
          reason: 'CIDRNotAvailable',
          message: `Node ${name} status is now: CIDRNotAvailable`,
        },
      ],
    }
  }
  // The resourceVersion makes the patch fail, rather than overwrite, if the Node changed meanwhile.
  const patch = {
    metadata: { resourceVersion: node.metadata.resourceVersion },
    spec: { podCIDR: cidr, podCIDRs: [cidr] },
  }
  return { actions: [{ type: 'patch', resource: nodes, name, patch }] }
}
