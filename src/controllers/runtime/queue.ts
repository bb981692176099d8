/**
 * A work queue of keys with client-go's promises: a key waiting is held once however often it is
 * added (the earliest due time wins), and failures back off exponentially per key. Processing is
 * serialised by the host (one pass at a time), so a key is never reconciled concurrently.
 */
export class WorkQueue {
  private readonly due = new Map<string, number>()
  private readonly failures = new Map<string, number>()

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1000_000,
  ) {}

  add(key: string, at: number): void {
    const current = this.due.get(key)
    if (current === undefined || at < current) this.due.set(key, at)
  }

  /** Re-adds a failed key after its exponential delay (5 ms, 10 ms, … up to 1000 s, as client-go). */
  addRateLimited(key: string, now: number): void {
    const n = this.failures.get(key) ?? 0
    this.failures.set(key, n + 1)
    this.add(key, now + Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** n))
  }

  forget(key: string): void {
    this.failures.delete(key)
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0
  }

  /** Removes and returns the keys due by `now`, earliest first. */
  takeDue(now: number): string[] {
    const ready = [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .map(([k]) => k)
    for (const k of ready) this.due.delete(k)
    return ready
  }

  nextDue(): number | undefined {
    let min: number | undefined
    for (const at of this.due.values()) if (min === undefined || at < min) min = at
    return min
  }

  get length(): number {
    return this.due.size
  }
}
