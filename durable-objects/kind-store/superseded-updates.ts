import type { ChangeType } from '../../src/apimachinery/types'

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

/**
 * Writes a change's log row. With `inPlaceAbove` (the compacted revision of a store whose kind
 * compacts superseded updates in place: Leases, renewed every few seconds), an update whose
 * object's last change is itself an update above that revision rewrites that change's row rather
 * than adding one: the row moves to the new resourceVersion with the new value and keeps its
 * `prev_rv`. The superseded update is then gone as if compacted, the log holds one update per
 * object however often it is written, and compaction still deletes the revision before it once
 * it passes the row. A row at or below the compacted revision is never moved: the revision its
 * `prev_rv` names is deleted already, and a read at an older resourceVersion needs it. Creations
 * and deletions are always rows of their own.
 */
export function writeChangeRow(
  sql: SqlStorage,
  row: ChangeRow,
  inPlaceAbove: number | undefined,
): void {
  if (inPlaceAbove !== undefined && row.type === 'MODIFIED' && row.prevRv > inPlaceAbove) {
    const moved = sql
      .exec(
        "UPDATE events SET rv = ?, at_ms = ?, value = ?, node_name = ? WHERE rv = ? AND type = 'MODIFIED' RETURNING rv",
        row.rv,
        row.atMs,
        row.value,
        row.node,
        row.prevRv,
      )
      .toArray()
    if (moved.length) return
  }
  sql.exec(
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
