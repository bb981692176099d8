/** Finds the objects whose last write is older than a time: only a store whose kind expires (Events) has it. */
export const expiryIndex = 'CREATE INDEX IF NOT EXISTS events_at_ms ON events (at_ms)'

/** Finds the objects bound to one node: a store has it once it holds an object bound to a node (pods). */
export const nodeIndex =
  'CREATE INDEX IF NOT EXISTS objects_node_name_key ON objects (node_name, key)'

export function hasIndex(sql: SqlStorage, name: string): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", name).toArray()
      .length > 0
  )
}
