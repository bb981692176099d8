import type { StoredRow } from './stored-row'

type PastRow = {
  key: string
  rv: number | null
  value: string | null
  node_name: string | null
}

/**
 * Objects as they were at a revision, in key order, after `startAfter`, optionally in one namespace
 * and of one node: the current objects, with each key changed since shown as it was before its
 * first change after the revision (the event its `prev_rv` names; none when it was created since).
 * Reads the changes after the revision and streams the current view, so no log index is needed.
 * The revision must not be older than the compacted one (the events a snapshot needs are kept
 * until then).
 */
export function* scanAt(
  sql: SqlStorage,
  current: Iterable<StoredRow>,
  /** the log's changes after the snapshot's revision (`LaggingUpdates.changes`) */
  changes: { from: string; args: number[] },
  namespace: string | undefined,
  startAfter: string,
  node?: string,
): Generator<StoredRow> {
  const nsClause = namespace === undefined ? '' : 'AND f.namespace = ?'
  const args: (string | number)[] = [...changes.args, startAfter]
  if (namespace !== undefined) args.push(namespace)
  // The first change of each key after the revision (SQLite takes a bare column from the MIN row).
  const past = sql
    .exec<PastRow>(
      `SELECT f.key, p.rv, p.value, p.node_name FROM
         (SELECT key, namespace, prev_rv, MIN(rv) FROM ${changes.from} GROUP BY key) f
         LEFT JOIN events p ON p.rv = f.prev_rv AND f.prev_rv > 0
       WHERE f.key > ? ${nsClause} ORDER BY f.key`,
      ...args,
    )
    .toArray()
  const changed = new Set(past.map((r) => r.key))
  const then: StoredRow[] = []
  for (const r of past)
    if (r.value !== null && (node === undefined || r.node_name === node))
      then.push({ key: r.key, rv: Number(r.rv), value: r.value })
  let i = 0
  for (const row of current) {
    while (i < then.length && then[i]!.key <= row.key) yield then[i++]!
    if (!changed.has(row.key)) yield row
  }
  while (i < then.length) yield then[i++]!
}
