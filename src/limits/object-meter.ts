import { AsyncLocalStorage } from 'node:async_hooks'
import { emptyEntry, type EntryUsage, type ObjectUsage } from './object-usage'

/**
 * The entry point an operation belongs to: its name, or null inside the meter's own reads (whose
 * storage calls are not counted).
 */
interface Running {
  meter: ObjectMeter
  entry: string | null
}

const running = new AsyncLocalStorage<Running>()

/** where the counts are kept, so they survive eviction as the object's storage does (written uncounted) */
export const usageTable = 'edgeplane_usage'

type Cursor = Pick<SqlStorageCursor<Record<string, SqlStorageValue>>, 'rowsRead' | 'rowsWritten'>

/**
 * Counts what one Durable Object is billed for (strict-limits mode): its invocations per entry
 * point, the rows its SQL cursors read and wrote (the runtime's own counts), its KV calls and
 * alarm writes, and the wall time it was active. Each is charged to the entry point it ran in;
 * what runs outside any (the constructor) is charged to `init`, unless the meter's own read woke
 * the object. The counts are kept in the object's storage after every invocation, written
 * without being counted.
 */
export class ObjectMeter {
  private usage: ObjectUsage
  /** cursors not yet added up, with the entry point each ran in (undefined: none) */
  private pending: { cursor: Cursor; entry: string | null | undefined }[] = []
  /** invocations and pending work in progress, and when the first of them began */
  private depth = 0
  private activeSince = 0

  constructor(private readonly raw: DurableObjectStorage) {
    raw.sql.exec(
      `CREATE TABLE IF NOT EXISTS ${usageTable} (id INTEGER PRIMARY KEY, value TEXT NOT NULL)`,
    )
    const row = raw.sql
      .exec<{ value: string }>(`SELECT value FROM ${usageTable} WHERE id = 1`)
      .toArray()[0]
    this.usage = row
      ? (JSON.parse(row.value) as ObjectUsage)
      : { since: Date.now(), activeMs: 0, databaseBytes: 0, entries: {} }
  }

  /** Runs one invocation of the entry point `name`; a call from inside one of this object's own invocations is part of that one. */
  entry<T>(name: string, run: () => T): T {
    if (running.getStore()?.meter === this) return run()
    this.charge(name).calls++
    this.enter()
    let result: T
    try {
      result = running.run({ meter: this, entry: name }, run)
    } catch (e) {
      this.exit()
      throw e
    }
    if (result instanceof Promise) return result.finally(() => this.exit()) as T
    this.exit()
    return result
  }

  /** Runs the meter's own read: nothing it does is counted. */
  quiet<T>(run: () => T): T {
    return running.run({ meter: this, entry: null }, run)
  }

  /** Work an invocation left pending (an outgoing call): the object cannot hibernate, and is billed, until it settles. */
  busy<T>(work: Promise<T>): Promise<T> {
    this.enter()
    return work.finally(() => this.exit())
  }

  /** A SQL cursor, whose rows are added up when the invocation it ran in ends. */
  cursor(cursor: Cursor): void {
    this.pending.push({ cursor, entry: this.current() })
  }

  /** Keys read or written through the KV API, or an alarm written, charged to the running entry point. */
  storage(kind: 'read' | 'write' | 'alarm', keys: number): void {
    const entry = this.current()
    if (entry === null) return
    const e = this.charge(entry ?? 'init')
    if (kind === 'read') e.kvRowsRead += keys
    else if (kind === 'write') e.kvRowsWritten += keys
    else e.alarmWrites += keys
  }

  /** The counts so far; what the constructor did for this read alone is dropped. */
  read(): ObjectUsage {
    this.flush(true)
    const activeMs = this.usage.activeMs + (this.depth > 0 ? Date.now() - this.activeSince : 0)
    return { ...structuredClone(this.usage), activeMs, databaseBytes: this.raw.sql.databaseSize }
  }

  private current(): string | null | undefined {
    const r = running.getStore()
    return r?.meter === this ? r.entry : undefined
  }

  private charge(entry: string): EntryUsage {
    return (this.usage.entries[entry] ??= emptyEntry())
  }

  private enter(): void {
    if (this.depth++ === 0) this.activeSince = Date.now()
  }

  private exit(): void {
    if (--this.depth === 0) this.usage.activeMs += Date.now() - this.activeSince
    this.flush(false)
    this.save()
  }

  private flush(dropUnattributed: boolean): void {
    for (const { cursor, entry } of this.pending) {
      if (entry === null || (entry === undefined && dropUnattributed)) continue
      const e = this.charge(entry ?? 'init')
      e.rowsRead += cursor.rowsRead
      e.rowsWritten += cursor.rowsWritten
    }
    this.pending = []
  }

  private save(): void {
    const write = () =>
      this.raw.sql.exec(
        `INSERT INTO ${usageTable} (id, value) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value`,
        JSON.stringify(this.usage),
      )
    try {
      write()
    } catch {
      // deleteAll() took the table with everything else
      this.raw.sql.exec(
        `CREATE TABLE IF NOT EXISTS ${usageTable} (id INTEGER PRIMARY KEY, value TEXT NOT NULL)`,
      )
      write()
    }
  }
}
