/** What GET /metrics of a strict-limits control plane says each store and controller host was billed for. */
import type { HttpClient } from '../http-client'
import type { Metered } from './bill'
import { emptyEntry, type EntryUsage } from '../../limits/object-usage'

export interface ObjectCounts {
  since: number
  activeSeconds: number
  databaseBytes: number
  /** a store's changes ever committed and the event rows it holds (growth of the latter, in a difference) */
  changes: number
  events: number
  /** event rows compaction removed */
  compacted: number
  entries: Record<string, EntryUsage>
}

export interface UsageSnapshot {
  /** when it was read (performance.now()) */
  atMs: number
  workerRequests: number
  /** by `<class> <object>`, e.g. `KindStore coordination.k8s.io/leases` */
  objects: Map<string, ObjectCounts>
}

const ENTRY_FIELDS: Record<string, keyof EntryUsage> = {
  edgeplane_object_requests_total: 'calls',
  edgeplane_object_sql_rows_read_total: 'rowsRead',
  edgeplane_object_sql_rows_written_total: 'rowsWritten',
  edgeplane_object_kv_rows_read_total: 'kvRowsRead',
  edgeplane_object_kv_rows_written_total: 'kvRowsWritten',
  edgeplane_object_alarm_writes_total: 'alarmWrites',
}
const OBJECT_FIELDS: Record<string, (c: ObjectCounts, v: number) => void> = {
  edgeplane_object_active_seconds_total: (c, v) => (c.activeSeconds = v),
  edgeplane_object_database_bytes: (c, v) => (c.databaseBytes = v),
  edgeplane_object_log_changes_total: (c, v) => (c.changes = v),
  edgeplane_object_log_events: (c, v) => (c.events = v),
  edgeplane_object_log_compacted_total: (c, v) => (c.compacted = v),
  edgeplane_object_counting_since_seconds: (c, v) => (c.since = v),
}

const emptyObject = (): ObjectCounts => ({
  since: 0,
  activeSeconds: 0,
  databaseBytes: 0,
  changes: 0,
  events: 0,
  compacted: 0,
  entries: {},
})

export function parseUsage(text: string, atMs: number): UsageSnapshot {
  const snap: UsageSnapshot = { atMs, workerRequests: 0, objects: new Map() }
  for (const line of text.split('\n')) {
    const m = /^(edgeplane_(?:object|worker)_[a-z_]+)\{([^}]*)\} (\S+)$/.exec(line.trim())
    if (!m) continue
    const [, metric, labelText, raw] = m
    const labels = Object.fromEntries(
      [...labelText!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]),
    )
    const value = Number(raw)
    if (metric === 'edgeplane_worker_requests_total') {
      snap.workerRequests += value
      continue
    }
    const key = `${labels.class} ${labels.object}`
    const counts = snap.objects.get(key) ?? emptyObject()
    snap.objects.set(key, counts)
    const field = ENTRY_FIELDS[metric!]
    if (field && labels.entry) (counts.entries[labels.entry] ??= emptyEntry())[field] = value
    else OBJECT_FIELDS[metric!]?.(counts, value)
  }
  return snap
}

/** Reads the counts; a control plane that serves none (not in strict-limits mode, or a broken meter) is an error, never a zero bill. */
export async function readUsage(client: HttpClient): Promise<UsageSnapshot> {
  const res = await client.request('GET', '/metrics', undefined, { accept: 'text/plain' })
  const atMs = performance.now()
  if (res.status !== 200)
    throw new Error(`GET /metrics answered ${res.status}: ${res.body.slice(0, 300)}`)
  const snap = parseUsage(res.body, atMs)
  if (!snap.objects.size)
    throw new Error(
      'GET /metrics serves no edgeplane_object_* series: is the control plane in strict-limits mode?',
    )
  return snap
}

/** What each object did between two reads. An object whose counting began again (its storage was wiped) counts from zero. */
export function usageBetween(
  a: UsageSnapshot,
  b: UsageSnapshot,
): UsageSnapshot & { seconds: number } {
  const objects = new Map<string, ObjectCounts>()
  for (const [key, after] of b.objects) {
    const was = a.objects.get(key)
    const before = was && was.since === after.since ? was : emptyObject()
    const entries: Record<string, EntryUsage> = {}
    for (const [entry, e] of Object.entries(after.entries)) {
      const p = before.entries[entry] ?? emptyEntry()
      entries[entry] = Object.fromEntries(
        Object.entries(e).map(([f, v]) => [f, v - p[f as keyof EntryUsage]]),
      ) as unknown as EntryUsage
    }
    objects.set(key, {
      since: after.since,
      activeSeconds: after.activeSeconds - before.activeSeconds,
      databaseBytes: after.databaseBytes,
      changes: after.changes - before.changes,
      events: after.events - before.events,
      compacted: after.compacted - before.compacted,
      entries,
    })
  }
  return {
    atMs: b.atMs,
    seconds: (b.atMs - a.atMs) / 1000,
    workerRequests: b.workerRequests - a.workerRequests,
    objects,
  }
}

/** Whether an entry point is billed as a Durable Object request: HTTP, RPC and alarms are; WebSocket events and `init` are not. */
export const isRequest = (entry: string) =>
  entry === 'http' || entry === 'alarm' || entry.startsWith('rpc:')

/** Rows an object wrote, the deletion its log's growth will cost included (see rowsPerCompactedEvent). */
export function rowsWritten(c: ObjectCounts, rowsPerEvent: number): number {
  let n = c.events * rowsPerEvent
  for (const e of Object.values(c.entries)) n += e.rowsWritten + e.kvRowsWritten + e.alarmWrites
  return n
}

export function rowsRead(c: ObjectCounts): number {
  return Object.values(c.entries).reduce((n, e) => n + e.rowsRead + e.kvRowsRead, 0)
}

/**
 * Rows written to delete one event row in compaction, over the stores' whole lives: their alarms'
 * rows written (compaction, mostly) per event row compaction deleted (a Lease's renewals, which
 * rewrite one row, leave it none to delete).
 * Every change's event row is deleted once in the steady state, so a window's rows written are
 * charged this much per row its logs grew by, and credited as much per row they shrank by. Null
 * when no store has compacted yet.
 */
export function rowsPerCompactedEvent(life: UsageSnapshot): number | null {
  let rows = 0
  let deleted = 0
  for (const [key, c] of life.objects) {
    if (!key.startsWith('KindStore ')) continue
    const gone = c.compacted
    if (gone <= 0) continue
    rows += c.entries.alarm?.rowsWritten ?? 0
    deleted += gone
  }
  return deleted > 0 ? rows / deleted : null
}

/** Everything the objects and the Worker did in a difference, as the bill takes it. */
export function meteredOf(d: UsageSnapshot, rowsPerEvent: number): Metered {
  const m: Metered = {
    workerRequests: d.workerRequests,
    doRequests: 0,
    wsMessages: 0,
    activeSeconds: 0,
    rowsRead: 0,
    rowsWritten: 0,
    storedBytes: 0,
  }
  for (const c of d.objects.values()) {
    for (const [entry, e] of Object.entries(c.entries)) {
      if (isRequest(entry)) m.doRequests += e.calls
      if (entry === 'ws:message') m.wsMessages += e.calls
    }
    m.activeSeconds += c.activeSeconds
    m.rowsRead += rowsRead(c)
    m.rowsWritten += rowsWritten(c, rowsPerEvent)
    m.storedBytes += c.databaseBytes
  }
  return m
}
