import type { KubeObject } from '../../apimachinery/types'
import { pods } from '../resources'
import type { Cache } from '../runtime/types'
import { podPriority } from './preemption'
import { splitKey } from '../../apimachinery/object-key'

/**
 * The PrioritySort queue: pending pods are tried highest spec.priority first, and among equals
 * the one created first, so a higher-priority pod is placed (or preempts) before lower ones take
 * the room. Keys whose pod is gone keep their place at the end.
 */
export function byPriority(keys: readonly string[], cache: Cache): string[] {
  const entries = keys.map((key, i) => {
    const { namespace, name } = splitKey(key)
    const pod: KubeObject | undefined = cache.get(pods, namespace, name)
    const created = pod ? Date.parse(String(pod.metadata.creationTimestamp ?? '')) : NaN
    return {
      key,
      i,
      priority: pod ? podPriority(pod) : -Infinity,
      created: Number.isNaN(created) ? Infinity : created,
    }
  })
  entries.sort((a, b) => b.priority - a.priority || a.created - b.created || a.i - b.i)
  return entries.map((e) => e.key)
}
