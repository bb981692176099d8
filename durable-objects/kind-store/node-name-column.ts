import { readMeta, writeMeta } from './meta'
import { nodeIndex } from './indexes'

/**
 * Gives `objects` and `events` a `node_name` column (a pod's `spec.nodeName`, '' otherwise),
 * filling it from the stored JSON for a store written before it existed, and indexes the current
 * objects by it if any is bound to a node. Call inside a transaction.
 */
export function ensureNodeNameColumn(sql: SqlStorage): void {
  if (readMeta(sql, 'node_name_column') === 1) return
  for (const table of ['objects', 'events']) {
    const columns = sql
      .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .toArray()
    if (!columns.some((c) => c.name === 'node_name'))
      sql.exec(`ALTER TABLE ${table} ADD COLUMN node_name TEXT NOT NULL DEFAULT ''`)
    sql.exec(
      `UPDATE ${table} SET node_name = json_extract(value, '$.spec.nodeName') WHERE json_type(value, '$.spec.nodeName') = 'text'`,
    )
  }
  if (sql.exec("SELECT 1 FROM objects WHERE node_name <> '' LIMIT 1").toArray().length)
    sql.exec(nodeIndex)
  writeMeta(sql, 'node_name_column', 1)
}
