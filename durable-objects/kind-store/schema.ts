/**
 * The store's tables. `events` is the append-only change log (the source of watch replay and of
 * reads at an older resourceVersion); `objects` is the current view, written in the same
 * transaction, so GET and LIST never scan the log.
 */
const ddl = [
  `CREATE TABLE IF NOT EXISTS events (
     rv INTEGER PRIMARY KEY,
     key TEXT NOT NULL,
     namespace TEXT NOT NULL,
     type TEXT NOT NULL,
     prev_rv INTEGER NOT NULL,
     at_ms INTEGER NOT NULL,
     value TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS events_key_rv ON events (key, rv)`,
  // Finds the objects whose last write is older than a time (expiring Events).
  `CREATE INDEX IF NOT EXISTS events_at_ms ON events (at_ms)`,
  `CREATE TABLE IF NOT EXISTS objects (
     key TEXT PRIMARY KEY,
     namespace TEXT NOT NULL,
     rv INTEGER NOT NULL,
     value TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS objects_namespace_key ON objects (namespace, key)`,
  `CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
]

export function ensureSchema(sql: SqlStorage): void {
  for (const statement of ddl) sql.exec(statement)
}

export function readMeta(sql: SqlStorage, name: string): number {
  const row = sql
    .exec<{ value: number }>('SELECT value FROM meta WHERE name = ?', name)
    .toArray()[0]
  return row ? Number(row.value) : 0
}

export function writeMeta(sql: SqlStorage, name: string, value: number): void {
  sql.exec(
    'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
    name,
    value,
  )
}
