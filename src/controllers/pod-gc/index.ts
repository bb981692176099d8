import type { KubeObject } from '../../apimachinery/types'
import { nodes, pods, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { isOutOfService } from './nodes'
import { isTerminated, nodeNameOf, podKey } from './pods'
import { QUARANTINE_KEY, sweepQuarantine } from './quarantine'
import { withMemory } from '../runtime/memory'
import { collectPod, collectTerminated, podNeedsLook, TERMINATED_KEY } from './reconcile'
import { podReads } from '../shared/pod-reads'
import { podGcWakesOn } from './wakes'

/** --terminated-pod-gc-threshold */
export const DEFAULT_TERMINATED_THRESHOLD = 12_500
/** how long a node must stay missing before its pods are collected */
export const DEFAULT_QUARANTINE_MS = 40_000

export interface PodGcOptions {
  /** terminated pods kept before the oldest are deleted; 0 or less turns the sweep off */
  terminatedThreshold?: number
  quarantineMs?: number
}

/**
 * The pod garbage collector. Keys: `terminated` for the sweep over terminated pods, `quarantine`
 * for the sweep over the clocks of missing nodes (a node back, or without pods left to collect, is
 * forgotten), and `namespace/name` for a pod that may need collecting on its own. Pods are synced
 * before nodes (the runner syncs in `watches.kinds` order), so the node of any pod in the cache was
 * created before the node cache was read.
 */
export function podGcController(options: PodGcOptions = {}): ControllerDefinition {
  const threshold = options.terminatedThreshold ?? DEFAULT_TERMINATED_THRESHOLD
  const quarantineMs = options.quarantineMs ?? DEFAULT_QUARANTINE_MS

  const podChanged = (pod: KubeObject, cache: Cache): string[] => {
    const current = cache.get(pods, pod.metadata.namespace, pod.metadata.name ?? '')
    if (!current) return []
    const keys: string[] = []
    if (threshold > 0 && isTerminated(current)) keys.push(TERMINATED_KEY)
    if (podNeedsLook(current, cache)) keys.push(podKey(current))
    return keys
  }

  const nodeChanged = (node: KubeObject, cache: Cache): string[] => {
    const name = node.metadata.name ?? ''
    const current = cache.get(nodes, undefined, name)
    if (current) {
      // A node back: the sweep lets go of its quarantine clock.
      if (!isOutOfService(current)) return [QUARANTINE_KEY]
      return [
        QUARANTINE_KEY,
        ...cache
          .list(pods)
          .filter((p) => nodeNameOf(p) === name && p.metadata.deletionTimestamp)
          .map(podKey),
      ]
    }
    return cache
      .list(pods)
      .filter((p) => nodeNameOf(p) === name)
      .map(podKey)
  }

  return {
    name: 'pod-gc',
    watches: {
      kinds: [pods, nodes],
      // Of a pod: its node, phase and reason (pods.ts), and conditions (markFailedAndDelete).
      reads: podReads(
        { spec: { nodeName: true }, status: { phase: true, reason: true, conditions: true } },
        false,
      ),
      wakesOn: podGcWakesOn(threshold > 0),
      keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
        if (sameResource(resource, pods)) return podChanged(object, cache)
        if (sameResource(resource, nodes)) return nodeChanged(object, cache)
        return []
      },
      allKeys(cache: Cache): string[] {
        const keys = threshold > 0 ? [TERMINATED_KEY, QUARANTINE_KEY] : [QUARANTINE_KEY]
        for (const pod of cache.list(pods)) if (podNeedsLook(pod, cache)) keys.push(podKey(pod))
        return keys
      },
    },
    reconcile(key, cache, now, _refused, memory) {
      if (key === TERMINATED_KEY) return { actions: collectTerminated(cache, threshold, now) }
      if (key === QUARANTINE_KEY)
        return withMemory({ actions: [] }, memory && sweepQuarantine(cache, memory))
      return collectPod(key, cache, now, quarantineMs, memory)
    },
  }
}

export { TERMINATED_KEY } from './reconcile'
export { QUARANTINE_KEY } from './quarantine'
export { OUT_OF_SERVICE_TAINT } from './nodes'
