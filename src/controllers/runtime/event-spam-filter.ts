import type { KubeObject } from '../../apimachinery/types'

/** The events a source may write about one object at once (client-go's defaultSpamBurst). */
export const spamBurst = 25

/** How long a source waits for each further event about that object (1 / defaultSpamQPS, 5 minutes). */
export const spamRefillMs = 300_000

/** As many sources and objects as upstream's filter remembers (maxLruCacheEntries). */
const maxRemembered = 4096

/**
 * Upstream's EventSourceObjectSpamFilter: each source and involved object has a token bucket that
 * starts full with `burst` tokens and refills one every `refillMs`; an event that finds it empty
 * is not written. Every event counts, a repeat of an earlier one included, so an object that is
 * always unhealthy gets one event every 5 minutes once its burst is spent. Only the most recently
 * used buckets are remembered (an LRU): a forgotten one starts full again.
 */
export class EventSpamFilter {
  /**
   * Per key, the time its bucket was (or would have been) empty: it holds `(now - emptyAt) / refillMs`
   * tokens, at most `burst`. Whole milliseconds, so the refill is exact.
   */
  private readonly emptyAt = new Map<string, number>()

  constructor(
    private readonly burst = spamBurst,
    private readonly refillMs = spamRefillMs,
    private readonly capacity = maxRemembered,
  ) {}

  /** Whether the event may be written at `now`; when it may, it takes its source and object's token. */
  admits(event: KubeObject, now: number): boolean {
    const key = spamKey(event)
    const full = now - this.burst * this.refillMs
    const last = this.emptyAt.get(key)
    this.emptyAt.delete(key)
    const empty = last === undefined ? full : Math.max(last, full)
    const admitted = now - empty >= this.refillMs
    this.emptyAt.set(key, admitted ? empty + this.refillMs : empty)
    if (this.emptyAt.size > this.capacity) this.emptyAt.delete(this.emptyAt.keys().next().value!)
    return admitted
  }
}

/** getSpamKey: the source and the involved object, whatever the event says about it. */
function spamKey(e: KubeObject): string {
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
  ])
}
