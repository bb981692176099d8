import { podCidrsOf } from '../../apimachinery/cidr'
import type { KubeObject } from '../../apimachinery/types'
import { nodes, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { reconcileNodeCidr } from './reconcile'
import type { NodeCidrSettings } from '../../apis/node-cidrs'

const waiting = (cache: Cache): string[] =>
  cache
    .list(nodes)
    .filter((n) => !podCidrsOf(n).length)
    .map((n) => n.metadata.name ?? '')

/**
 * The node IPAM controller: gives every Node a pod CIDR of its own out of the cluster CIDR, so
 * that pod IPs are unique in the cluster. Keys are node names. Its allocation state is the stored
 * Nodes themselves: nothing to keep, and nothing to lose on a restart.
 */
export function nodeIpamController(settings: NodeCidrSettings): ControllerDefinition {
  return {
    name: 'node-ipam',
    watches: {
      kinds: [nodes],
      // A node appearing, going, or changing its pod CIDR; heartbeats change none of that.
      wakesOn: (_resource, type, object, previous) =>
        type !== 'MODIFIED' ||
        !previous ||
        podCidrsOf(object).join() !== podCidrsOf(previous).join(),
      keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
        if (!sameResource(resource, nodes)) return []
        const name = object.metadata.name ?? ''
        // A node that went away may have freed the block another is waiting for.
        if (!cache.get(nodes, undefined, name)) return waiting(cache)
        return [name]
      },
      allKeys: waiting,
    },
    reconcile: (key, cache) => reconcileNodeCidr(key, cache, settings),
  }
}

export {
  nodeCidrSettings,
  pickNodeCidr,
  DEFAULT_CLUSTER_CIDR,
  DEFAULT_NODE_CIDR_MASK_SIZE,
  type NodeCidrSettings,
} from '../../apis/node-cidrs'
export { podCidrsOf }
