import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { leases, nodes, pods, sameResource } from '../resources'
import { DEFAULT_STARTUP_GRACE_PERIOD_MS, NODE_LEASE_NAMESPACE, readyCondition } from './heartbeat'
import { DEFAULT_GRACE_PERIOD_MS } from '../../settings/grace-period'
import { reconcileNode } from './reconcile'
import { nodeTaints } from './taints'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { DEFAULT_EVICTION_RATES, type EvictionRateOptions } from '../../settings/eviction-rates'
import { podReads } from '../shared/pod-reads'
import { notOnHeartbeats } from '../shared/node-heartbeat'

/**
 * The full resync's period: every node's deadline reaches the controller as its Lease's store
 * announces it, so the resync only catches an announcement lost (a store evicted while its
 * controller host could not be reached). Upstream polls node health every 5 s instead.
 */
export const NODE_LIFECYCLE_RESYNC_MS = 10 * 60_000

export interface NodeLifecycleOptions {
  /** how long a node may go without a heartbeat before it is marked Unknown (default 40 s) */
  gracePeriodMs?: number
  /** the same for a node that has never reported a Ready condition (default 60 s) */
  startupGracePeriodMs?: number
  /** how fast nodes may newly be tainted NoExecute for being not ready (upstream's defaults) */
  evictionRates?: EvictionRateOptions
}

/**
 * Pod changes only matter on a node where pods are being evicted or marked not ready; elsewhere
 * they would only cost a pass that lists every pod.
 */
function podNeedsNode(pod: KubeObject, cache: Cache): string[] {
  const nodeName = asRecord(pod.spec).nodeName
  if (typeof nodeName !== 'string' || nodeName === '') return []
  const node = cache.get(nodes, undefined, nodeName)
  if (!node) return []
  const troubled =
    readyCondition(node)?.status !== 'True' ||
    nodeTaints(node).some((t) => t.effect === 'NoExecute')
  return troubled ? [nodeName] : []
}

/**
 * The node lifecycle controller: marks nodes whose kubelet went silent, keeps the
 * condition-derived taints in step with node status, and evicts pods from NoExecute-tainted nodes.
 * Keys are node names; a node's Lease (in kube-node-lease) and its pods map to it.
 */
export function nodeLifecycleController(options: NodeLifecycleOptions = {}): ControllerDefinition {
  const periods = {
    gracePeriodMs: options.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS,
    startupGracePeriodMs: options.startupGracePeriodMs ?? DEFAULT_STARTUP_GRACE_PERIOD_MS,
  }
  const rates = options.evictionRates ?? DEFAULT_EVICTION_RATES
  return {
    name: 'node-lifecycle',
    resyncMs: NODE_LIFECYCLE_RESYNC_MS,
    watches: {
      kinds: [nodes, leases, pods],
      // Of a pod: its node (podNeedsNode, podsOn), tolerations (planEviction) and conditions (Ready for
      // markPodNotReady, PodScheduled for planEviction). Nodes are written back whole and kept whole.
      reads: podReads(
        { spec: { nodeName: true, tolerations: true }, status: { conditions: true } },
        false,
      ),
      // A renewal only moves a node's deadline later: the Lease's store announces the lease once it
      // passes its deadline unrenewed (`deadlines`), and a renewal neither wakes nor queues the node.
      // A deleted lease leaves the node to its own deadline (assessHealth), so it does. A node
      // coming back reports its status, which wakes it. Pods matter only on their node
      // (podNeedsNode): a pending one is on none.
      deadlines: [leases],
      queuesOn: (resource, type) => !sameResource(resource, leases) || type !== 'MODIFIED',
      wakesOn: notOnHeartbeats((resource, type, object, previous) => {
        if (sameResource(resource, leases)) return type === 'DELETED'
        if (!sameResource(resource, pods)) return true
        return [object, previous].some(
          (p) =>
            typeof asRecord(p?.spec).nodeName === 'string' && asRecord(p?.spec).nodeName !== '',
        )
      }),
      keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
        const name = object.metadata.name ?? ''
        if (sameResource(resource, nodes)) return name ? [name] : []
        if (sameResource(resource, leases))
          return object.metadata.namespace === NODE_LEASE_NAMESPACE && name ? [name] : []
        if (sameResource(resource, pods)) return podNeedsNode(object, cache)
        return []
      },
      allKeys: (cache) =>
        cache
          .list(nodes)
          .map((n) => n.metadata.name ?? '')
          .filter((n) => n !== ''),
    },
    reconcile: (key, cache, now) => reconcileNode(key, cache, now, periods, rates),
  }
}

export { reconcileNode } from './reconcile'
export { DEFAULT_STARTUP_GRACE_PERIOD_MS, NODE_LEASE_NAMESPACE } from './heartbeat'
