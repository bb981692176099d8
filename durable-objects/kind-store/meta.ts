/** The store's `meta` table: named integers (versions, flags, the compacted resourceVersion). */
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
