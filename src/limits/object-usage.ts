/**
 * What the platform bills a Durable Object for, as strict-limits mode counts it (see ObjectMeter):
 * per entry point (an RPC method, `http`, `alarm`, a WebSocket event, or `init`, the constructor
 * of an instance a billed call started), and for the object as a whole.
 */
export interface EntryUsage {
  /** invocations of the entry point */
  calls: number
  /** `rowsRead` and `rowsWritten` of every `ctx.storage.sql.exec` cursor, as the runtime counts them */
  rowsRead: number
  rowsWritten: number
  /** keys read (`get`, each entry `list` returns) and written (`put`, `delete`) through the KV API */
  kvRowsRead: number
  kvRowsWritten: number
  /** `setAlarm` and `deleteAlarm` calls */
  alarmWrites: number
}

export interface ObjectUsage {
  /** when counting began (epoch ms); it survives eviction, as the counts do */
  since: number
  /** wall time in which at least one entry point ran or work it started was pending */
  activeMs: number
  /** `ctx.storage.sql.databaseSize` when read */
  databaseBytes: number
  entries: Record<string, EntryUsage>
  /**
   * a store's change log: every change it ever committed (its head revision), the event rows it
   * holds now, and those its compaction removed
   */
  log?: { changes: number; events: number; compacted: number }
}

export const emptyEntry = (): EntryUsage => ({
  calls: 0,
  rowsRead: 0,
  rowsWritten: 0,
  kvRowsRead: 0,
  kvRowsWritten: 0,
  alarmWrites: 0,
})

/** The Worker's own invocations in this isolate (strict-limits mode): requests and cron triggers. */
export const workerRequests: Record<'fetch' | 'scheduled', number> = { fetch: 0, scheduled: 0 }

/**
 * Counts one invocation of the Worker. `GET /metrics` is the meter's own read, and is not counted:
 * the bench reads it before and after what it measures.
 */
export function countWorkerRequest(kind: 'fetch' | 'scheduled', req?: Request): void {
  if (req && new URL(req.url).pathname === '/metrics') return
  workerRequests[kind]++
}

const entryMetrics: [name: string, help: string, value: (e: EntryUsage) => number][] = [
  [
    'edgeplane_object_requests_total',
    'Invocations of a Durable Object entry point (strict-limits mode).',
    (e) => e.calls,
  ],
  [
    'edgeplane_object_sql_rows_read_total',
    'Rows read by SQL cursors, as the runtime counts them (strict-limits mode).',
    (e) => e.rowsRead,
  ],
  [
    'edgeplane_object_sql_rows_written_total',
    'Rows written by SQL cursors, as the runtime counts them (strict-limits mode).',
    (e) => e.rowsWritten,
  ],
  [
    'edgeplane_object_kv_rows_read_total',
    'Keys read through the KV storage API (strict-limits mode).',
    (e) => e.kvRowsRead,
  ],
  [
    'edgeplane_object_kv_rows_written_total',
    'Keys written or deleted through the KV storage API (strict-limits mode).',
    (e) => e.kvRowsWritten,
  ],
  [
    'edgeplane_object_alarm_writes_total',
    'setAlarm and deleteAlarm calls (strict-limits mode).',
    (e) => e.alarmWrites,
  ],
]

/** The usage of each Durable Object as Prometheus samples, labelled with its class and name, and the Worker's requests. */
export function renderObjectUsage(series: [labels: string, usage: ObjectUsage][]): string {
  const lines: string[] = []
  const head = (name: string, help: string, type: 'counter' | 'gauge') =>
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
  for (const [name, help, value] of entryMetrics) {
    head(name, help, 'counter')
    for (const [labels, u] of series)
      for (const [entry, e] of Object.entries(u.entries))
        lines.push(`${name}{${labels},entry="${entry}"} ${value(e)}`)
  }
  const whole: [
    name: string,
    help: string,
    type: 'counter' | 'gauge',
    value: (u: ObjectUsage) => number | undefined,
  ][] = [
    [
      'edgeplane_object_active_seconds_total',
      'Wall time a Durable Object was active: running an entry point or waiting on work it started (strict-limits mode).',
      'counter',
      (u) => u.activeMs / 1000,
    ],
    [
      'edgeplane_object_database_bytes',
      "Size of the Durable Object's SQLite database (strict-limits mode).",
      'gauge',
      (u) => u.databaseBytes,
    ],
    [
      'edgeplane_object_log_changes_total',
      'Changes a store committed: its head resourceVersion (strict-limits mode).',
      'counter',
      (u) => u.log?.changes,
    ],
    [
      'edgeplane_object_log_compacted_total',
      "Event rows a store's compaction removed: its changes up to the compacted revision less the rows it still holds of them (strict-limits mode).",
      'counter',
      (u) => u.log?.compacted,
    ],
    [
      'edgeplane_object_log_events',
      "Event rows a store's change log holds (strict-limits mode).",
      'gauge',
      (u) => u.log?.events,
    ],
    [
      'edgeplane_object_counting_since_seconds',
      'When the Durable Object began counting, in seconds since the epoch (strict-limits mode).',
      'gauge',
      (u) => u.since / 1000,
    ],
  ]
  for (const [name, help, type, value] of whole) {
    head(name, help, type)
    for (const [labels, u] of series) {
      const v = value(u)
      if (v !== undefined) lines.push(`${name}{${labels}} ${v}`)
    }
  }
  head(
    'edgeplane_worker_requests_total',
    'Invocations of the Worker in this isolate, GET /metrics excepted (strict-limits mode).',
    'counter',
  )
  for (const [entry, n] of Object.entries(workerRequests))
    lines.push(`edgeplane_worker_requests_total{entry="${entry}"} ${n}`)
  return lines.join('\n') + '\n'
}
