import { ControllerMemory } from '../runtime/memory'

/**
 * When each missing node was first seen missing. A pod bound to a node absent from the cache is
 * only collected once the node has stayed absent for the quarantine (upstream waits the same 40 s
 * for its informer before believing a node is gone). The clock is kept in the controller's memory,
 * which its host persists: a restarted controller carries on where it was.
 */
export class NodeQuarantine {
  constructor(
    private readonly quarantineMs: number,
    readonly memory: ControllerMemory = new ControllerMemory(),
  ) {}

  /** How long until `node` has been missing for the whole quarantine (0: it has); starts its clock on first sight. */
  remainingMs(node: string, now: number): number {
    let since = this.memory.get(node) as number | undefined
    if (typeof since !== 'number') this.memory.set(node, (since = now))
    return Math.max(0, since + this.quarantineMs - now)
  }

  /** The node is back (or nothing refers to it any more). */
  release(node: string): void {
    this.memory.delete(node)
  }

  /** Forgets every node not in `stillMissing`. */
  retainOnly(stillMissing: ReadonlySet<string>): void {
    for (const node of this.memory.keys()) if (!stillMissing.has(node)) this.memory.delete(node)
  }
}
