import type { KubeObject } from '../../apimachinery/types'
import { nodes, pods } from '../resources'
import { onNode } from '../runtime/lookups'
import { memoryChanges, type MemoryChanges, type Remembered } from '../runtime/memory'
import type { Cache } from '../runtime/types'
import { isForceDeleted } from './pods'

/** The key of the sweep that forgets the quarantine clocks of nodes no longer missing (pod keys always hold a slash). */
export const QUARANTINE_KEY = 'quarantine'

/**
 * When each missing node was first seen missing. A pod bound to a node absent from the cache is
 * only collected once the node has stayed absent for the quarantine (upstream waits the same 40 s
 * for its informer before believing a node is gone). The clock is kept in the controller's memory,
 * by node name, which its host persists: a restarted controller carries on where it was.
 */
export function quarantineOf(
  memory: Remembered,
  node: string,
  now: number,
  quarantineMs: number,
): { remainingMs: number; memory?: MemoryChanges } {
  const since = memory.get(node)
  if (typeof since === 'number') return { remainingMs: Math.max(0, since + quarantineMs - now) }
  return { remainingMs: quarantineMs, memory: new Map([[node, now]]) }
}

/** The node is back: its clock is forgotten, so that it starts again should the node go missing again. */
export const released = (memory: Remembered, node: string): MemoryChanges | undefined =>
  memoryChanges(memory, [[node, undefined]])

/** A remembered node is still missing while it is absent from the cache and a pod not yet force-deleted is bound to it. */
const stillMissing = (cache: Cache, node: string): boolean =>
  !cache.get(nodes, undefined, node) &&
  onNode(cache, pods, node).some((p: KubeObject) => !isForceDeleted(p))

/** The sweep: forgets the clock of every node that is back, or that no pod waiting to be collected is bound to any more. */
export function sweepQuarantine(cache: Cache, memory: Remembered): MemoryChanges | undefined {
  return memoryChanges(
    memory,
    memory
      .keys()
      .filter((node) => !stillMissing(cache, node))
      .map((node) => [node, undefined] as const),
  )
}
