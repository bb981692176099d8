import { readMeta, writeMeta } from './meta'

/** meta: the log rows compaction deleted over the store's life */
export const compactedRowsMeta = 'compacted_rows'

/**
 * Forgets the history at or below `target` that no read at or above it needs, for the changes
 * after `compactedRv` up to at most `span` of them: the event each one replaced (its `prev_rv`) and
 * every deletion. So for every key its latest event at or below the new compacted revision stays
 * and deletions are gone, and the rows deleted are about the changes made since the last
 * compaction, never the size of the log. Call inside a transaction; returns the revision now
 * compacted to (`target` once done).
 */
export function compactSpan(
  sql: SqlStorage,
  compactedRv: number,
  target: number,
  span: number,
): number {
  if (target <= compactedRv) return compactedRv
  const end = Math.min(target, compactedRv + span)
  const replaced = sql.exec(
    'DELETE FROM events WHERE rv IN (SELECT prev_rv FROM events WHERE rv > ? AND rv <= ? AND prev_rv > 0) RETURNING rv',
    compactedRv,
    end,
  )
  const deleted = sql.exec(
    "DELETE FROM events WHERE rv > ? AND rv <= ? AND type = 'DELETED' RETURNING rv",
    compactedRv,
    end,
  )
  const rows = replaced.toArray().length + deleted.toArray().length
  if (rows) writeMeta(sql, compactedRowsMeta, readMeta(sql, compactedRowsMeta) + rows)
  writeMeta(sql, 'compact_rv', end)
  return end
}

/** The highest rv that is at least `minEvents` behind `currentRv` and was written before `cutoffMs`. */
export function compactionTarget(
  sql: SqlStorage,
  currentRv: number,
  compactedRv: number,
  minEvents: number,
  cutoffMs: number,
): number {
  const byCount = currentRv - minEvents
  if (byCount <= compactedRv) return compactedRv
  const row = sql
    .exec<{ rv: number }>(
      'SELECT rv FROM events WHERE rv <= ? AND at_ms <= ? ORDER BY rv DESC LIMIT 1',
      byCount,
      cutoffMs,
    )
    .toArray()[0]
  return Math.max(compactedRv, Number(row?.rv ?? 0))
}

/**
 * When the newest change above `compactedRv` and at least `minEvents` behind `currentRv` was
 * written (what `compactionTarget` reaches once that is older than the cutoff), if there is one.
 */
export function excessWrittenMs(
  sql: SqlStorage,
  currentRv: number,
  compactedRv: number,
  minEvents: number,
): number | undefined {
  const row = sql
    .exec<{ at: number }>(
      'SELECT at_ms AS at FROM events WHERE rv > ? AND rv <= ? ORDER BY rv DESC LIMIT 1',
      compactedRv,
      currentRv - minEvents,
    )
    .toArray()[0]
  return row && Number(row.at)
}
