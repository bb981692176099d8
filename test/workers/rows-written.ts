import { env, runInDurableObject } from 'cloudflare:test'
import { usageTable } from '../../src/limits/object-meter'

export const storeOf = (name: string) => env.KIND_STORE.get(env.KIND_STORE.idFromName(name))

/**
 * The SQLite rows one request makes the store `name` write, as the runtime counts them (each index
 * row included): every cursor the store opens while `request` runs is summed, but for the
 * strict-limits meter's own bookkeeping, which production does not write.
 */
export async function rowsWrittenBy(
  name: string,
  request: () => Promise<unknown>,
): Promise<number> {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = []
  let restore = () => {}
  await runInDurableObject(storeOf(name), (_instance, state) => {
    const sql = state.storage.sql
    const exec = sql.exec
    sql.exec = function (this: SqlStorage, ...args: Parameters<SqlStorage['exec']>) {
      const cursor = exec.apply(this, args)
      if (!String(args[0]).includes(usageTable)) cursors.push(cursor)
      return cursor
    } as SqlStorage['exec']
    restore = () => {
      sql.exec = exec
    }
  })
  try {
    await request()
  } finally {
    await runInDurableObject(storeOf(name), () => restore())
  }
  return cursors.reduce((n, c) => n + c.rowsWritten, 0)
}
