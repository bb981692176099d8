/**
 * When each missing node was first seen missing. A pod bound to a node absent from the cache is
 * only collected once the node has stayed absent for the quarantine (upstream waits the same 40 s
 * for its informer before believing a node is gone). The clock lives in memory: a restarted
 * controller starts it again, which only delays collection.
 */
export class NodeQuarantine {
  private readonly missingSince = new Map<string, number>()

  constructor(private readonly quarantineMs: number) {}

  /** How long until `node` has been missing for the whole quarantine (0: it has); starts its clock on first sight. */
  remainingMs(node: string, now: number): number {
    let since = this.missingSince.get(node)
    if (since === undefined) this.missingSince.set(node, (since = now))
    return Math.max(0, since + this.quarantineMs - now)
  }

  /** The node is back (or nothing refers to it any more). */
  release(node: string): void {
    this.missingSince.delete(node)
  }

  /** Forgets every node not in `stillMissing`. */
  retainOnly(stillMissing: ReadonlySet<string>): void {
    for (const node of [...this.missingSince.keys()]) if (!stillMissing.has(node)) this.missingSince.delete(node)
  }
}
