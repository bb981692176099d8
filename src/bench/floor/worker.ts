// The physical floor for a create: a bare Worker that hands the request body to one SQLite-backed
// Durable Object over RPC, which does the same storage work a store create must do at the least
// (parse, bump the resourceVersion, stamp it, serialise, insert) and returns the stored JSON; and
// the floor for a get: the same Worker reading one row back by name.
import { DurableObject } from 'cloudflare:workers'

interface FloorEnv {
  FLOOR: DurableObjectNamespace<FloorStore>
}

export class FloorStore extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env)
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS objects (name TEXT PRIMARY KEY, rv INTEGER NOT NULL, body TEXT NOT NULL)',
    )
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)',
    )
    ctx.storage.sql.exec("INSERT OR IGNORE INTO meta (name, value) VALUES ('rv', 0)")
  }

  insert(text: string): string {
    const obj = JSON.parse(text) as { metadata: { name: string; resourceVersion?: string } }
    const sql = this.ctx.storage.sql
    const rv = sql
      .exec<{ value: number }>(
        "UPDATE meta SET value = value + 1 WHERE name = 'rv' RETURNING value",
      )
      .one().value
    obj.metadata.resourceVersion = String(rv)
    const body = JSON.stringify(obj)
    sql.exec('INSERT INTO objects (name, rv, body) VALUES (?, ?, ?)', obj.metadata.name, rv, body)
    return body
  }

  get(name: string): string | undefined {
    return this.ctx.storage.sql
      .exec<{ body: string }>('SELECT body FROM objects WHERE name = ?', name)
      .toArray()[0]?.body
  }
}

export default {
  async fetch(req: Request, env: FloorEnv): Promise<Response> {
    const path = new URL(req.url).pathname
    if (path === '/healthz') return new Response('ok')
    if (req.method === 'POST' && path === '/insert') {
      const stub = env.FLOOR.get(env.FLOOR.idFromName('floor'))
      try {
        const body = await stub.insert(await req.text())
        return new Response(body, { status: 201, headers: { 'Content-Type': 'application/json' } })
      } catch (err) {
        return new Response(err instanceof Error ? err.message : String(err), { status: 500 })
      }
    }
    if (req.method === 'GET' && path.startsWith('/get/')) {
      const body = await env.FLOOR.get(env.FLOOR.idFromName('floor')).get(
        decodeURIComponent(path.slice('/get/'.length)),
      )
      return body === undefined
        ? new Response('not found', { status: 404 })
        : new Response(body, { headers: { 'Content-Type': 'application/json' } })
    }
    return new Response('not found', { status: 404 })
  },
} satisfies ExportedHandler<FloorEnv>
