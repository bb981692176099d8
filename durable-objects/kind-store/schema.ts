import { upgradeSchema } from './schema-upgrade'
import { readMeta, writeMeta } from './meta'

/**
 * The store's schema version, kept in `meta` as `schema_version`. A store without the row was
 * written by schema 1 (which never recorded one); `schema-upgrade.ts` brings it to this version in
 * place, in one transaction, the first time the store starts.
 */
export const schemaVersion = 2

/**
 * The store's tables. `events` is the append-only change log (the source of watch replay and of
 * reads at an older resourceVersion), keyed by its resourceVersion; `objects` is the current view,
 * written in the same transaction and keyed by `namespace/name`, so GET and LIST never scan the log
 * and a namespace's objects are one key range. Every index row is a row written on each commit:
 * the head resourceVersion is the log's last key (not a row of its own), and the indexes only some
 * kinds need (`events_at_ms`, `objects_node_name_key`) are made for those kinds alone.
 */
const tables = [
  `CREATE TABLE events (
     rv INTEGER PRIMARY KEY,
     key TEXT NOT NULL,
     namespace TEXT NOT NULL,
     type TEXT NOT NULL,
     prev_rv INTEGER NOT NULL,
     at_ms INTEGER NOT NULL,
     value TEXT NOT NULL,
     node_name TEXT NOT NULL DEFAULT '')`,
  `CREATE TABLE objects (
     key TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     rv INTEGER NOT NULL,
     value TEXT NOT NULL,
     node_name TEXT NOT NULL DEFAULT '') WITHOUT ROWID`,
]

/** Creates the tables of a new store, or upgrades those of an older schema; call inside a transaction. */
export function ensureSchema(sql: SqlStorage): void {
  sql.exec('CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)')
  const version = readMeta(sql, 'schema_version')
  if (version === schemaVersion) return
  if (version > schemaVersion)
    throw new Error(`the store's schema ${version} is newer than this code's ${schemaVersion}`)
  if (hasTable(sql, 'events')) upgradeSchema(sql)
  else {
    for (const statement of tables) sql.exec(statement)
    writeMeta(sql, 'node_name_column', 1)
  }
  writeMeta(sql, 'schema_version', schemaVersion)
}

function hasTable(sql: SqlStorage, name: string): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray()
      .length > 0
  )
}
