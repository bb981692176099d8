import type { ChangeType, KubeObject } from '../../src/apimachinery/types'
import { readMeta } from './meta'
import { nodeNameOf } from './node-scope'
import { hasIndex, nodeIndex } from './indexes'
import { compactSpan, compactedRowsMeta, compactionTarget } from './compaction'
import { scanAt } from './snapshot'
import { LaggingUpdates, type LoggedChange } from './superseded-updates'
import type { StoredRow } from './stored-row'

export type { StoredRow }

export type { ChangeType }

/** A committed change, as fanned out to watchers. */
export interface Change {
  type: ChangeType
  rv: number
  key: string
  /** the object after the change (for DELETED: its last state, stamped with the deletion's rv) */
  object: KubeObject
  /** `object` serialised, exactly as stored */
  text: string
  /** the state before the change, when there was one */
  previous?: KubeObject
}

/** The range of `objects` keys (`namespace/name`) that holds one namespace's objects. */
function namespaceRange(namespace: string, startAfter: string): [string, string] {
  const first = `${namespace}/`
  return [startAfter > first ? startAfter : first, `${namespace}0`]
}

/**
 * The append-only log and the current view. One instance per store; the store is the only writer,
 * so resourceVersions are gapless and strictly increasing.
 */
export class Log {
  currentRv: number
  compactedRv: number
  /** the store has `objects_node_name_key` */
  private nodeIndexed: boolean
  /** the store's kind compacts superseded updates in place (`superseded-updates.ts`) */
  compactsUpdatesInPlace = false
  private readonly lagging: LaggingUpdates

  /**
   * The head resourceVersion is the log's last key; compaction never removes the events above the
   * compacted revision, so it is never behind that either (`current_rv` remains only in a store
   * upgraded from a schema that recorded it, when its log could not give it).
   */
  constructor(private readonly sql: SqlStorage) {
    this.compactedRv = readMeta(sql, 'compact_rv')
    this.lagging = new LaggingUpdates(sql)
    const head = sql.exec<{ rv: number | null }>('SELECT MAX(rv) AS rv FROM events').one().rv
    this.currentRv = Math.max(
      Number(head ?? 0),
      this.lagging.head(),
      this.compactedRv,
      readMeta(sql, 'current_rv'),
    )
    this.nodeIndexed = hasIndex(sql, 'objects_node_name_key')
  }

  get(key: string): StoredRow | undefined {
    return this.sql
      .exec<{ key: string; rv: number; value: string; node: string }>(
        'SELECT key, rv, value, node_name AS node FROM objects WHERE key = ?',
        key,
      )
      .toArray()[0]
  }

  /** Appends one change and updates the current view; call inside a transaction. */
  append(
    type: ChangeType,
    key: string,
    namespace: string,
    object: KubeObject,
    previous: StoredRow | undefined,
    nowMs: number,
  ): { rv: number; text: string } {
    const rv = this.currentRv + 1
    object.metadata.resourceVersion = String(rv)
    const text = JSON.stringify(object)
    const node = nodeNameOf(object)
    const prevRv = previous?.rv ?? 0
    const inPlaceAbove = this.compactsUpdatesInPlace ? this.compactedRv : undefined
    const change = { rv, key, namespace, type, prevRv, atMs: nowMs, value: text, node }
    this.lagging.write(change, inPlaceAbove)
    if (type === 'DELETED') this.sql.exec('DELETE FROM objects WHERE key = ?', key)
    else if (previous?.node === node)
      // The node is unchanged: its index row is not rewritten.
      this.sql.exec('UPDATE objects SET rv = ?, value = ? WHERE key = ?', rv, text, key)
    else {
      if (node && !this.nodeIndexed) this.sql.exec(nodeIndex)
      this.nodeIndexed ||= !!node
      this.sql.exec(
        'INSERT INTO objects (key, namespace, rv, value, node_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET rv = excluded.rv, value = excluded.value, node_name = excluded.node_name',
        key,
        namespace,
        rv,
        text,
        node,
      )
    }
    this.currentRv = rv
    return { rv, text }
  }

  /** Current objects in key order, after `startAfter`, optionally in one namespace and of one node. */
  *scanCurrent(
    namespace: string | undefined,
    startAfter: string,
    node?: string,
  ): Generator<StoredRow> {
    const where = namespace === undefined ? ['key > ?'] : ['key > ? AND key < ? AND namespace = ?']
    const args: string[] =
      namespace === undefined ? [startAfter] : [...namespaceRange(namespace, startAfter), namespace]
    if (node !== undefined) where.push('node_name = ?'), args.push(node)
    const cursor = this.sql.exec<{ key: string; rv: number; value: string }>(
      `SELECT key, rv, value FROM objects WHERE ${where.join(' AND ')} ORDER BY key`,
      ...args,
    )
    for (const row of cursor) yield row
  }

  /** Objects as they were at `rv` (which must not be older than the compacted revision), in key order, optionally of one node. */
  scanAt(
    rv: number,
    namespace: string | undefined,
    startAfter: string,
    node?: string,
  ): Generator<StoredRow> {
    return scanAt(
      this.sql,
      this.scanCurrent(namespace, startAfter, node),
      this.lagging.changes(rv),
      namespace,
      startAfter,
      node,
    )
  }

  /** Changes after `rv`, in order, for watch replay; with `node`, only those whose object was or is of that node. */
  *changesAfter(
    rv: number,
    node?: string,
  ): Generator<{ rv: number; key: string; type: ChangeType; value: string; prevRv: number }> {
    const { from, args } = this.lagging.changes(rv)
    const cursor =
      node === undefined
        ? this.sql.exec<LoggedChange>(
            `SELECT rv, key, type, value, prev_rv FROM ${from} ORDER BY rv`,
            ...args,
          )
        : this.sql.exec<LoggedChange>(
            `SELECT c.rv, c.key, c.type, c.value, c.prev_rv FROM ${from} c LEFT JOIN events p ON p.rv = c.prev_rv
           WHERE c.node_name = ? OR p.node_name = ? ORDER BY c.rv`,
            ...args,
            node,
            node,
          )
    for (const row of cursor)
      yield { rv: row.rv, key: row.key, type: row.type, value: row.value, prevRv: row.prev_rv }
  }

  /** Current objects whose last write was before `cutoffMs`, oldest first, at most `limit`. */
  writtenBefore(cutoffMs: number, limit: number): StoredRow[] {
    return this.sql
      .exec<{ key: string; rv: number; value: string }>(
        'SELECT o.key, o.rv, o.value FROM events e JOIN objects o ON o.key = e.key AND o.rv = e.rv WHERE e.at_ms < ? ORDER BY e.at_ms LIMIT ?',
        cutoffMs,
        limit,
      )
      .toArray()
  }

  valueAt(rv: number): string | undefined {
    return this.sql
      .exec<{ value: string }>('SELECT value FROM events WHERE rv = ?', rv)
      .toArray()[0]?.value
  }

  countCurrent(namespace: string | undefined, startAfter: string): number {
    const row =
      namespace === undefined
        ? this.sql
            .exec<{ n: number }>('SELECT COUNT(*) AS n FROM objects WHERE key > ?', startAfter)
            .one()
        : this.sql
            .exec<{ n: number }>(
              'SELECT COUNT(*) AS n FROM objects WHERE key > ? AND key < ? AND namespace = ?',
              ...namespaceRange(namespace, startAfter),
              namespace,
            )
            .one()
    return Number(row.n)
  }

  hasObjects(): boolean {
    return this.sql.exec('SELECT 1 FROM objects LIMIT 1').toArray().length > 0
  }

  eventCount(): number {
    return Number(this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM events').one().n)
  }

  /** Event rows compaction deleted over the store's life. */
  compactedRows(): number {
    return readMeta(this.sql, compactedRowsMeta)
  }

  /**
   * Forgets history at or below `target` in steps of at most `span` changes, keeping for every key
   * its latest event at or below it (so reads at any rv >= target stay answerable) and dropping
   * deletions entirely. Call inside a transaction; true once compacted to `target`.
   */
  compact(target: number, span: number): boolean {
    this.lagging.catchUp(Date.now(), { upTo: target })
    this.compactedRv = compactSpan(this.sql, this.compactedRv, target, span)
    return this.compactedRv >= target
  }

  /** The highest rv that is at least `minEvents` behind the head and older than `minAgeMs`. */
  compactionTarget(minEvents: number, nowMs: number, minAgeMs: number): number {
    return compactionTarget(this.sql, this.currentRv, this.compactedRv, minEvents, nowMs - minAgeMs)
  }

  /** When the oldest last write of a current object was made (what expires first), if any. */
  oldestWriteMs(): number | undefined {
    const row = this.sql
      .exec<{ at: number }>(
        'SELECT e.at_ms AS at FROM events e JOIN objects o ON o.key = e.key AND o.rv = e.rv ORDER BY e.at_ms LIMIT 1',
      )
      .toArray()[0]
    return row && Number(row.at)
  }
}
