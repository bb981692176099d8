/**
 * What a controller must remember between passes that its caches cannot tell it again (what it
 * asked the stores for, when it first saw something missing). Entries hold plain JSON values; the
 * host keeps them in its own storage, so they outlive the Durable Object's eviction or restart
 * (its caches and queue are simply rebuilt from the stores).
 */
export class ControllerMemory<T = unknown> {
  private readonly entries = new Map<string, T>()
  private readonly changed = new Set<string>()

  get(key: string): T | undefined {
    return this.entries.get(key)
  }

  has(key: string): boolean {
    return this.entries.has(key)
  }

  keys(): string[] {
    return [...this.entries.keys()]
  }

  set(key: string, value: T): void {
    this.entries.set(key, value)
    this.changed.add(key)
  }

  delete(key: string): void {
    if (this.entries.delete(key)) this.changed.add(key)
  }

  /** Takes back entries an earlier instance saved; nothing counts as changed. */
  restore(saved: Iterable<[string, T]>): void {
    for (const [key, value] of saved) this.entries.set(key, value)
  }

  /** The entries written (their value) or deleted (undefined) since the last call. */
  takeChanges(): Map<string, T | undefined> {
    const out = new Map<string, T | undefined>()
    for (const key of this.changed) out.set(key, this.entries.get(key))
    this.changed.clear()
    return out
  }
}
