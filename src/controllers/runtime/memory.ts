/** What a reconcile reads of its controller's memory. */
export interface Remembered<T = unknown> {
  get(key: string): T | undefined
  keys(): string[]
}

/** The entries a reconcile asks its controller's memory to set (a value) or forget (undefined). */
export type MemoryChanges<T = unknown> = ReadonlyMap<string, T | undefined>

/** The memory of a controller that has remembered nothing (yet). */
export const nothingRemembered: Remembered<never> = { get: () => undefined, keys: () => [] }

/**
 * The changes that leave `memory` holding each of `entries` (a value, or nothing when undefined),
 * less forgetting what it does not hold; undefined when that leaves none.
 */
export function memoryChanges<T>(
  memory: Remembered<T>,
  entries: Iterable<readonly [string, T | undefined]>,
): MemoryChanges<T> | undefined {
  const out = new Map<string, T | undefined>()
  for (const [key, value] of entries)
    if (value !== undefined || memory.get(key) !== undefined) out.set(key, value)
  return out.size ? out : undefined
}

/** An outcome carrying memory changes, when there are any. */
export function withMemory<O extends object>(
  outcome: O,
  changes: MemoryChanges | undefined,
): O & { memory?: MemoryChanges } {
  return changes ? { ...outcome, memory: changes } : outcome
}

/**
 * What a controller must remember between passes that its caches cannot tell it again (what it
 * asked the stores for, when it first saw something missing, the write the API last refused for a
 * key). Entries hold plain JSON values; the runtime owns them and changes them only as reconcile's
 * outcomes ask. The host keeps them in its own storage, so they outlive the Durable Object's
 * eviction or restart (its caches and queue are simply rebuilt from the stores).
 */
export class ControllerMemory<T = unknown> implements Remembered<T> {
  private readonly entries = new Map<string, T>()
  private readonly changed = new Set<string>()

  get(key: string): T | undefined {
    return this.entries.get(key)
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

  /** Applies what a reconcile asked for: each entry set to its value, or forgotten when it has none. */
  apply(changes: MemoryChanges<T> | undefined): void {
    if (!changes) return
    for (const [key, value] of changes) {
      if (value === undefined) this.delete(key)
      else this.set(key, value)
    }
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
