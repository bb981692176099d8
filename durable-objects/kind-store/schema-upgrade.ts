import { ensureNodeNameColumn } from './node-name-column'
import { readMeta } from './meta'
import { nodeIndex } from './indexes'

/**
 * Brings a store written by schema 1 to schema 2, in place; call inside a transaction. Every object,
 * event (so every resourceVersion and watch position), and `meta` value is kept:
 * - `objects` is rebuilt keyed by its `key` alone (WITHOUT ROWID), which also serves a namespace's
 *   range, so its rowid, key index and namespace index go;
 * - the log loses its `(key, rv)` index (compaction and reads at an older resourceVersion follow
 *   `prev_rv` instead), and `events_at_ms` unless the store's kind expires;
 * - `current_rv` stays only if the log's last key cannot give it.
 */
export function upgradeSchema(sql: SqlStorage): void {
  ensureNodeNameColumn(sql)
  sql.exec(`CREATE TABLE objects_v2 (
     key TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     rv INTEGER NOT NULL,
     value TEXT NOT NULL,
     node_name TEXT NOT NULL DEFAULT '') WITHOUT ROWID`)
  sql.exec(
    'INSERT INTO objects_v2 (key, namespace, rv, value, node_name) SELECT key, namespace, rv, value, node_name FROM objects',
  )
  sql.exec('DROP TABLE objects')
  sql.exec('ALTER TABLE objects_v2 RENAME TO objects')
  if (sql.exec("SELECT 1 FROM objects WHERE node_name <> '' LIMIT 1").toArray().length)
    sql.exec(nodeIndex)
  sql.exec('DROP INDEX IF EXISTS events_key_rv')
  if (readMeta(sql, 'expiring') !== 1) sql.exec('DROP INDEX IF EXISTS events_at_ms')
  const head = Number(
    sql.exec<{ rv: number | null }>('SELECT MAX(rv) AS rv FROM events').one().rv ?? 0,
  )
  if (readMeta(sql, 'current_rv') <= Math.max(head, readMeta(sql, 'compact_rv')))
    sql.exec("DELETE FROM meta WHERE name = 'current_rv'")
}
