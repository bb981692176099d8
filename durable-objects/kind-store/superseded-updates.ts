import type { ChangeType } from '../../src/apimachinery/types'
import { hasIndex } from './indexes'

/** One change's row of the log (`events`). */
export interface ChangeRow {
  rv: number
  key: string
  namespace: string
  type: ChangeType
  /** the rv of the object the change replaced, 0 for a create */
  prevRv: number
  atMs: number
  value: string
  node: string
}

/** The `type` of a lagging row: it stands for its object's latest update, as `objects` holds it. */
const lagging = 'LAGGING'

/** Finds a store's lagging rows; made with its first one, so a store of another kind keeps no such index. */
const laggingIndex = `CREATE INDEX IF NOT EXISTS events_lagging ON events (key) WHERE type = '${lagging}'`

/** A change as the log's readers see it. */
export type LoggedChange = {
  rv: number
  key: string
  type: ChangeType
  value: string
  prev_rv: number
}

/**
 * How a store whose kind compacts superseded updates in place (Leases, renewed every few seconds)
 * writes its log. An update whose object's last change is itself an update above the compacted
 * revision writes no log row: that earlier update's row becomes *lagging* (`type = 'LAGGING'`) and
 * stands for the object's latest update, whose resourceVersion and value are the object's row in
 * `objects`; the update writes that row alone. The superseded updates are gone as if compacted,
 * the log holds one update per object however often it is written, and its `prev_rv` still names
 * the revision before them. Readers of the log read a lagging row as that latest update (the
 * `changes` queries); compaction and the object's deletion first write it out as it stands
 * (`catchUp`), so compaction deletes the revision before it only once it passes the update. A row
 * at or below the compacted revision never becomes lagging: the revision its `prev_rv` names is
 * deleted already, and a read at an older resourceVersion needs it. Creations and deletions are
 * always rows of their own. A store of any other kind has no lagging row and no index for them.
 */
export class LaggingUpdates {
  /** the store has `events_lagging`, so it may hold lagging rows */
  private indexed: boolean

  constructor(private readonly sql: SqlStorage) {
    this.indexed = hasIndex(sql, 'events_lagging')
  }

  /** The highest resourceVersion a lagging row stands for (the log's own rows give the rest). */
  head(): number {
    if (!this.indexed) return 0
    const row = this.sql
      .exec<{ rv: number | null }>(
        `SELECT MAX(o.rv) AS rv FROM events e JOIN objects o ON o.key = e.key WHERE e.type = '${lagging}'`,
      )
      .one()
    return Number(row.rv ?? 0)
  }

  /**
   * Writes a change's log row, or none for an update a lagging row stands for (`inPlaceAbove`: the
   * compacted revision of a store whose kind compacts superseded updates in place). Call inside a
   * transaction, before the change's object row is written.
   */
  write(row: ChangeRow, inPlaceAbove: number | undefined): void {
    if (row.prevRv > 0 && (this.indexed || inPlaceAbove !== undefined)) {
      const last = this.sql
        .exec<{ type: string }>('SELECT type FROM events WHERE rv = ?', row.prevRv)
        .toArray()[0]
      // No row at the object's revision: a lagging row stands for it.
      if (!last && row.type === 'MODIFIED' && inPlaceAbove !== undefined) return
      if (!last) this.catchUp(row.atMs, { key: row.key })
      else if (
        inPlaceAbove !== undefined &&
        row.type === 'MODIFIED' &&
        last.type === 'MODIFIED' &&
        row.prevRv > inPlaceAbove
      ) {
        if (!this.indexed) this.sql.exec(laggingIndex)
        this.indexed = true
        this.sql.exec(`UPDATE events SET type = '${lagging}' WHERE rv = ?`, row.prevRv)
        return
      }
    }
    this.sql.exec(
      'INSERT INTO events (rv, key, namespace, type, prev_rv, at_ms, value, node_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      row.rv,
      row.key,
      row.namespace,
      row.type,
      row.prevRv,
      row.atMs,
      row.value,
      row.node,
    )
  }

  /**
   * Writes out lagging rows as the updates they stand for, at `atMs`: that of one object, or every
   * one at or below `upTo` (before compaction reaches them). Call inside a transaction.
   */
  catchUp(atMs: number, only: { key: string } | { upTo: number }): void {
    if (!this.indexed) return
    const [where, arg] = 'key' in only ? ['e.key = ?', only.key] : ['e.rv <= ?', only.upTo]
    const rows = this.sql
      .exec<{ at: number; rv: number; value: string; node: string }>(
        `SELECT e.rv AS at, o.rv, o.value, o.node_name AS node FROM events e JOIN objects o ON o.key = e.key
         WHERE e.type = '${lagging}' AND ${where}`,
        arg,
      )
      .toArray()
    for (const r of rows)
      this.sql.exec(
        "UPDATE events SET rv = ?, type = 'MODIFIED', at_ms = ?, value = ?, node_name = ? WHERE rv = ?",
        r.rv,
        atMs,
        r.value,
        r.node,
        r.at,
      )
  }

  /**
   * The log's changes after `rv` (as a subquery of `LoggedChange` columns and `key`, `namespace`,
   * `node_name`), a lagging row read as the update it stands for; with its arguments.
   */
  changes(rv: number): { from: string; args: number[] } {
    const logged = `SELECT rv, key, namespace, type, value, prev_rv, node_name FROM events WHERE rv > ?`
    if (!this.indexed) return { from: `(${logged})`, args: [rv] }
    return {
      from: `(${logged} AND type <> '${lagging}'
        UNION ALL SELECT o.rv, e.key, e.namespace, 'MODIFIED', o.value, e.prev_rv, o.node_name
          FROM events e JOIN objects o ON o.key = e.key WHERE e.type = '${lagging}' AND o.rv > ?)`,
      args: [rv, rv],
    }
  }
}
