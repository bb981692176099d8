import type { KubeObject } from '../../apimachinery/types'

/** As many recent events as upstream's correlator remembers (maxLruCacheEntries). */
const maxRemembered = 4096

/** An event already written, as the correlator remembers it. */
export interface Recorded {
  namespace: string
  name: string
  count: number
}

/**
 * Upstream's event correlator for identical events: an event with the same source, involved
 * object, type, reason and message as one written before is not written again; the first one's
 * `count` and `lastTimestamp` are bumped instead. It remembers the most recent events only (an
 * LRU), so a repeat it has forgotten, or whose event has expired, starts a new event.
 */
export class EventCorrelator {
  private readonly recent = new Map<string, Recorded>()

  /** The event this one repeats, if it is remembered. */
  repeatOf(event: KubeObject): Recorded | undefined {
    const key = correlationKey(event)
    const hit = this.recent.get(key)
    if (hit) {
      this.recent.delete(key)
      this.recent.set(key, hit)
    }
    return hit
  }

  remember(event: KubeObject, recorded: Recorded): void {
    const key = correlationKey(event)
    this.recent.delete(key)
    this.recent.set(key, recorded)
    if (this.recent.size > maxRemembered) this.recent.delete(this.recent.keys().next().value!)
  }

  forget(event: KubeObject): void {
    this.recent.delete(correlationKey(event))
  }
}

/** getEventKey: what makes two events the same event. */
function correlationKey(e: KubeObject): string {
  const o = (e.involvedObject ?? {}) as Record<string, unknown>
  const source = (e.source ?? {}) as Record<string, unknown>
  return JSON.stringify([
    source.component,
    source.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
    e.type,
    e.reason,
    e.message,
  ])
}
