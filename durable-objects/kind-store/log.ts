import type { ChangeType, KubeObject } from '../../src/apimachinery/types'
import { readMeta, writeMeta } from './schema'
import { nodeNameOf } from './node-scope'

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

export interface StoredRow {
  key: string
  rv: number
  value: string
}

/**
 * The append-only log and the current view. One instance per store; the store is the only writer,
 * so resourceVersions are gapless and strictly increasing.
 */
export class Log {
  currentRv: number
  compactedRv: number

  constructor(private readonly sql: SqlStorage) {
    this.currentRv = readMeta(sql, 'current_rv')
    this.compactedRv = readMeta(sql, 'compact_rv')
  }

  get(key: string): StoredRow | undefined {
    return this.sql
      .exec<{ key: string; rv: number; value: string }>(
        'SELECT key, rv, value FROM objects WHERE key = ?',
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
    this.sql.exec(
      'INSERT INTO events (rv, key, namespace, type, prev_rv, at_ms, value, node_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      rv,
      key,
      namespace,
      type,
      previous?.rv ?? 0,
      nowMs,
      text,
      node,
    )
    if (type === 'DELETED') this.sql.exec('DELETE FROM objects WHERE key = ?', key)
    else
      this.sql.exec(
        'INSERT INTO objects (key, namespace, rv, value, node_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET rv = excluded.rv, value = excluded.value, node_name = excluded.node_name',
        key,
        namespace,
        rv,
        text,
        node,
      )
    writeMeta(this.sql, 'current_rv', rv)
    this.currentRv = rv
    return { rv, text }
  }

  /** Current objects in key order, after `startAfter`, optionally in one namespace and of one node. */
  *scanCurrent(
    namespace: string | undefined,
    startAfter: string,
    node?: string,
  ): Generator<StoredRow> {
    const where = ['key > ?']
    const args: string[] = [startAfter]
    if (namespace !== undefined) where.push('namespace = ?'), args.push(namespace)
    if (node !== undefined) where.push('node_name = ?'), args.push(node)
    const cursor = this.sql.exec<{ key: string; rv: number; value: string }>(
      `SELECT key, rv, value FROM objects WHERE ${where.join(' AND ')} ORDER BY key`,
      ...args,
    )
    for (const row of cursor) yield row
  }

  /** Objects as they were at `rv` (which must not be older than the compacted revision), in key order, optionally of one node. */
  *scanAt(
    rv: number,
    namespace: string | undefined,
    startAfter: string,
    node?: string,
  ): Generator<StoredRow> {
    const nsClause = namespace === undefined ? '' : 'AND namespace = ?'
    const nodeClause = node === undefined ? '' : 'AND node_name = ?'
    const args: (string | number)[] =
      namespace === undefined ? [rv, startAfter] : [rv, startAfter, namespace]
    if (node !== undefined) args.push(node)
    const cursor = this.sql.exec<{ key: string; rv: number; value: string; type: string }>(
      `SELECT key, rv, value, type FROM events WHERE rv IN (
         SELECT MAX(rv) FROM events WHERE rv <= ? AND key > ? ${nsClause} GROUP BY key
       ) ${nodeClause} ORDER BY key`,
      ...args,
    )
    for (const row of cursor)
      if (row.type !== 'DELETED') yield { key: row.key, rv: row.rv, value: row.value }
  }

  /** Changes after `rv`, in order, for watch replay; with `node`, only those whose object was or is of that node. */
  *changesAfter(
    rv: number,
    node?: string,
  ): Generator<{ rv: number; key: string; type: ChangeType; value: string; prevRv: number }> {
    const cursor =
      node === undefined
        ? this.sql.exec<{
            rv: number
            key: string
            type: ChangeType
            value: string
            prev_rv: number
          }>('SELECT rv, key, type, value, prev_rv FROM events WHERE rv > ? ORDER BY rv', rv)
        : this.sql.exec<{
            rv: number
            key: string
            type: ChangeType
            value: string
            prev_rv: number
          }>(
            `SELECT e.rv, e.key, e.type, e.value, e.prev_rv FROM events e LEFT JOIN events p ON p.rv = e.prev_rv
           WHERE e.rv > ? AND (e.node_name = ? OR p.node_name = ?) ORDER BY e.rv`,
            rv,
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
              'SELECT COUNT(*) AS n FROM objects WHERE namespace = ? AND key > ?',
              namespace,
              startAfter,
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

  /**
   * Forgets history at or below `target`, keeping for every key its latest event at or below it
   * (so reads at any rv >= target stay answerable) and dropping deletions entirely.
   */
  compact(target: number, batch: number): number {
    if (target <= this.compactedRv) return 0
    const doomed = this.sql
      .exec<{ rv: number }>(
        `SELECT e.rv FROM events e WHERE e.rv <= ?1 AND (e.type = 'DELETED' OR e.rv < (
         SELECT MAX(l.rv) FROM events l WHERE l.key = e.key AND l.rv <= ?1))
       LIMIT ?2`,
        target,
        batch,
      )
      .toArray()
      .map((r) => r.rv)
    if (doomed.length > 0)
      this.sql.exec(
        'DELETE FROM events WHERE rv IN (SELECT value FROM json_each(?))',
        JSON.stringify(doomed),
      )
    if (doomed.length < batch) {
      writeMeta(this.sql, 'compact_rv', target)
      this.compactedRv = target
    }
    return doomed.length
  }

  /** The highest rv that is at least `minEvents` behind the head and older than `minAgeMs`. */
  compactionTarget(minEvents: number, nowMs: number, minAgeMs: number): number {
    const byCount = this.currentRv - minEvents
    if (byCount <= this.compactedRv) return this.compactedRv
    const row = this.sql
      .exec<{ rv: number | null }>(
        'SELECT MAX(rv) AS rv FROM events WHERE rv <= ? AND at_ms <= ?',
        byCount,
        nowMs - minAgeMs,
      )
      .one()
    return Math.max(this.compactedRv, Number(row.rv ?? 0))
  }
}
