import type { KubeObject } from '../../apimachinery/types'
import { nodes, pods, sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { isOutOfService } from './nodes'
import { isTerminated, nodeNameOf, podKey } from './pods'
import { NodeQuarantine } from './quarantine'
import { collectPod, collectTerminated, podNeedsLook, TERMINATED_KEY } from './reconcile'
import { podReads } from '../shared/pod-reads'

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
 * The pod garbage collector. Keys: `terminated` for the sweep over terminated pods, and
 * `namespace/name` for a pod that may need collecting on its own. Pods are synced before nodes
 * (the runner syncs in `watches` order), so the node of any pod in the cache was created before
 * the node cache was read.
 */
export function podGcController(options: PodGcOptions = {}): ControllerDefinition {
  const threshold = options.terminatedThreshold ?? DEFAULT_TERMINATED_THRESHOLD
  const quarantine = new NodeQuarantine(options.quarantineMs ?? DEFAULT_QUARANTINE_MS)

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
      quarantine.release(name)
      if (!isOutOfService(current)) return []
      return cache
        .list(pods)
        .filter((p) => nodeNameOf(p) === name && p.metadata.deletionTimestamp)
        .map(podKey)
    }
    return cache
      .list(pods)
      .filter((p) => nodeNameOf(p) === name)
      .map(podKey)
  }

  return {
    name: 'pod-gc',
    watches: [pods, nodes],
    // Of a pod: its node, phase and reason (pods.ts), and conditions (markFailedAndDelete).
    reads: podReads({ spec: { nodeName: true }, status: { phase: true, reason: true, conditions: true } }, false),
    // As upstream's pod GC, a periodic sweep: every case it collects is about time (quarantine,
    // thresholds, nodes gone for a while), which its resync covers; changes alone never need it at once.
    wakesOn: () => false,
    keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
      if (sameResource(resource, pods)) return podChanged(object, cache)
      if (sameResource(resource, nodes)) return nodeChanged(object, cache)
      return []
    },
    allKeys(cache: Cache): string[] {
      const keys = threshold > 0 ? [TERMINATED_KEY] : []
      const missing = new Set<string>()
      for (const pod of cache.list(pods)) {
        if (!podNeedsLook(pod, cache)) continue
        keys.push(podKey(pod))
        const nodeName = nodeNameOf(pod)
        if (nodeName && !cache.get(nodes, undefined, nodeName)) missing.add(nodeName)
      }
      quarantine.retainOnly(missing)
      return keys
    },
    reconcile(key: string, cache: Cache, now: number) {
      if (key === TERMINATED_KEY) return { actions: collectTerminated(cache, threshold, now) }
      return collectPod(key, cache, now, quarantine)
    },
    memory: quarantine.memory,
  }
}

export { TERMINATED_KEY } from './reconcile'
export { OUT_OF_SERVICE_TAINT } from './nodes'
