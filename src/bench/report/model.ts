import type { BenchOptions } from '../options'
import type { ControlPlaneRep } from '../scenarios/control-plane'
import type { SeriesResult } from '../scenarios/series'
import { round, spread, type Percentiles } from '../stats'

export type Verdict = 'meets' | 'misses' | 'reference' | 'reported' | 'pending' | 'not measured'

export interface Goal {
  op: '>=' | '<=' | '<'
  target: number
}

/** One key of the report. `value` is null when it was not measured (see `pending` / `skipped`). */
export interface Figure {
  value: number | null
  min: number | null
  max: number | null
  /** The figure of each repetition. */
  reps: number[]
  /** How `value` comes from `reps`. */
  aggregate: 'median' | 'max' | 'single'
  unit: string
  goal: string | null
  verdict: Verdict
  pending?: string
  skipped?: string
  /** The size it was measured at, when smaller than the key's nominal one (quick and smoke runs). */
  at?: string
  details?: Record<string, unknown>
}

export interface LatencyRow {
  scenario: string
  p50: number
  p90: number
  p99: number
  max: number
}

export interface Report {
  meta: Record<string, unknown>
  results: Record<string, Figure>
  /** Latency percentiles per scenario (medians over repetitions), in ms, for the chart. */
  latency: LatencyRow[]
}

export const MEASURED_KEYS = [
  'create_per_s_c16',
  'floor_do_insert_per_s_c16',
  'create_vs_floor',
  'etcd_put_per_s_c16',
  'create_vs_etcd',
  'create_p99_ms',
  'get_p99_ms',
  'list_10k_ms',
  'watch_p99_ms_100',
  'bundle_gzip_bytes',
  'rss_mb_peak',
] as const

export const PENDING_KEYS = ['schedule_pods_per_s', 'deploy_1000_over_100_nodes_s', 'pod_replace_p99_ms', 'node_loss_recover_s', 'idle_alarms_per_min'] as const

export const PENDING_REASON = 'needs the node agent / workload controllers'

export const ALL_KEYS = [...MEASURED_KEYS, ...PENDING_KEYS]

const GOALS: Partial<Record<(typeof MEASURED_KEYS)[number], Goal>> = {
  create_per_s_c16: { op: '>=', target: 400 },
  create_vs_floor: { op: '>=', target: 0.6 },
  create_p99_ms: { op: '<=', target: 100 },
  get_p99_ms: { op: '<=', target: 20 },
  list_10k_ms: { op: '<=', target: 600 },
  watch_p99_ms_100: { op: '<=', target: 100 },
  bundle_gzip_bytes: { op: '<', target: 1024 * 1024 },
}

/** What one repetition measured; etcd is absent when it was skipped. */
export interface RepResult {
  etcd?: { put: SeriesResult }
  floor: { insert: SeriesResult }
  cp: ControlPlaneRep
}

export interface RunInfo {
  options: BenchOptions
  startedAt: Date
  finishedAt: Date
  etcd: { version: string } | { skipped: string }
  environment: Record<string, unknown>
}

export function buildReport(run: RunInfo, reps: RepResult[]): Report {
  const o = run.options
  const etcdSkipped = 'skipped' in run.etcd ? run.etcd.skipped : undefined
  const cp = reps.map((r) => r.cp)
  const etcdReps = reps.flatMap((r) => (r.etcd ? [r.etcd.put] : []))
  const results: Record<string, Figure> = {}

  results.create_per_s_c16 = figure('create_per_s_c16', 'req/s', cp.map((r) => r.create.perSecond), 'median', seriesDetails(cp.map((r) => r.create)))
  results.floor_do_insert_per_s_c16 = figure('floor_do_insert_per_s_c16', 'req/s', reps.map((r) => r.floor.insert.perSecond), 'median', seriesDetails(reps.map((r) => r.floor.insert)))
  results.create_vs_floor = figure('create_vs_floor', 'ratio', reps.map((r) => r.cp.create.perSecond / r.floor.insert.perSecond), 'median', {
    what: 'create_per_s_c16 ÷ floor_do_insert_per_s_c16, per repetition',
  })
  if (etcdSkipped !== undefined) {
    results.etcd_put_per_s_c16 = skipped('req/s', etcdSkipped)
    results.create_vs_etcd = skipped('ratio', etcdSkipped)
  } else {
    results.etcd_put_per_s_c16 = figure('etcd_put_per_s_c16', 'req/s', etcdReps.map((s) => s.perSecond), 'median', {
      etcd_version: (run.etcd as { version: string }).version,
      via: 'HTTP/JSON gateway POST /v3/kv/put',
      ...seriesDetails(etcdReps),
    })
    results.create_vs_etcd = figure('create_vs_etcd', 'ratio', reps.map((r) => r.cp.create.perSecond / r.etcd!.put.perSecond), 'median', {
      what: 'create_per_s_c16 ÷ etcd_put_per_s_c16, per repetition',
    })
  }
  results.create_p99_ms = figure('create_p99_ms', 'ms', cp.map((r) => r.create.latency.p99), 'median', latencyDetails(cp.map((r) => r.create.latency)))
  results.get_p99_ms = figure('get_p99_ms', 'ms', cp.map((r) => r.get.latency.p99), 'median', {
    ...latencyDetails(cp.map((r) => r.get.latency)),
    get_per_s: med(cp.map((r) => r.get.perSecond)),
    errors: sum(cp.map((r) => r.get.errors)),
  })
  results.list_10k_ms = figure('list_10k_ms', 'ms', cp.map((r) => r.list.medianMs), 'median', {
    objects: cp[0]?.list.items,
    bytes: cp[0]?.list.bytes,
    calls_per_rep: o.listCalls,
    calls_ms: cp.map((r) => r.list.callsMs.map(round)),
    what: 'GET /api/v1/configmaps (all namespaces, JSON), request sent → body parsed; median of the calls in each repetition',
  })
  results.watch_p99_ms_100 = figure('watch_p99_ms_100', 'ms', cp.map((r) => r.watch.ackToEvent.p99), 'median', {
    watchers: o.watchers,
    writes: cp[0]?.watch.writes,
    writes_per_s: med(cp.map((r) => r.watch.writesPerSecond)),
    send_to_event_p50_ms: med(cp.map((r) => r.watch.sendToEvent.p50)),
    send_to_event_p99_ms: med(cp.map((r) => r.watch.sendToEvent.p99)),
    ack_to_event_signed_p50_ms: med(cp.map((r) => r.watch.ackToEventSigned.p50)),
    ack_to_event_signed_p99_ms: med(cp.map((r) => r.watch.ackToEventSigned.p99)),
    events_before_ack: med(cp.map((r) => r.watch.beforeAck)),
    delivered: sum(cp.map((r) => r.watch.delivered)),
    lost: sum(cp.map((r) => r.watch.lost)),
    what: 'write response received → event received at each watcher, 0 when the event arrived first',
  })
  const bundle = cp.find((r) => r.bundle)?.bundle
  results.bundle_gzip_bytes = bundle
    ? figure('bundle_gzip_bytes', 'bytes', [bundle.gzipBytes], 'single', {
        raw_bytes: bundle.rawBytes,
        gzip_with_inline_source_map_bytes: bundle.gzipWithSourceMapBytes,
        what: 'gzip of the launcher-built worker.mjs without its inline source map',
      })
    : skipped('bytes', 'the bundle was not found')
  const rss = cp.flatMap((r) => (r.rssPeakMb === undefined ? [] : [r.rssPeakMb]))
  results.rss_mb_peak = rss.length
    ? figure('rss_mb_peak', 'MiB', rss, 'max', { what: 'peak RSS (VmHWM and 250 ms samples) of the control plane workerd, highest over the repetitions' })
    : skipped('MiB', '/proc is not readable here')
  if (o.objects !== 10_000) {
    for (const key of ['create_per_s_c16', 'floor_do_insert_per_s_c16', 'create_vs_floor', 'etcd_put_per_s_c16', 'create_vs_etcd', 'create_p99_ms', 'get_p99_ms', 'list_10k_ms']) {
      if (results[key]!.value !== null) results[key]!.at = `${o.objects.toLocaleString('en-US')} objects`
    }
  }
  if (o.watchers !== 100 && results.watch_p99_ms_100!.value !== null) results.watch_p99_ms_100!.at = `${o.watchers} watchers`
  for (const key of PENDING_KEYS) results[key] = { value: null, min: null, max: null, reps: [], aggregate: 'median', unit: '', goal: null, verdict: 'pending', pending: PENDING_REASON }

  const latency: LatencyRow[] = [
    latencyRow(`create, API (c=${o.concurrency})`, cp.map((r) => r.create.latency)),
    latencyRow(`insert, floor Worker→DO (c=${o.concurrency})`, reps.map((r) => r.floor.insert.latency)),
    ...(etcdReps.length ? [latencyRow(`put, etcd gateway (c=${o.concurrency})`, etcdReps.map((s) => s.latency))] : []),
    latencyRow(`get, API (c=${o.concurrency})`, cp.map((r) => r.get.latency)),
    latencyRow(`watch write ack→event (${o.watchers} watchers)`, cp.map((r) => r.watch.ackToEvent)),
    latencyRow(`watch write sent→event (${o.watchers} watchers)`, cp.map((r) => r.watch.sendToEvent)),
  ]

  return {
    meta: {
      mode: o.mode,
      started_at: run.startedAt.toISOString(),
      finished_at: run.finishedAt.toISOString(),
      duration_s: round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000),
      repetitions: reps.length,
      objects_per_rep: o.objects,
      concurrency: o.concurrency,
      warmup_requests: o.warmup,
      watchers: o.watchers,
      watch_writes: o.watchWrites,
      time_limit_per_series_s: o.timeLimitMs / 1000,
      payload_bytes: 1024,
      etcd: run.etcd,
      ...run.environment,
    },
    results,
    latency,
  }
}

function figure(key: (typeof MEASURED_KEYS)[number], unit: string, values: number[], aggregate: Figure['aggregate'], details?: Record<string, unknown>): Figure {
  const s = spread(values)
  const value = s === undefined ? null : aggregate === 'max' ? s.max : s.median
  const goal = GOALS[key]
  let verdict: Verdict = key.startsWith('floor_') || key.startsWith('etcd_') ? 'reference' : 'reported'
  if (value === null) verdict = 'not measured'
  else if (goal) verdict = meets(value, goal) ? 'meets' : 'misses'
  return {
    value: value === null ? null : round(value),
    min: s ? round(s.min) : null,
    max: s ? round(s.max) : null,
    reps: values.map(round),
    aggregate,
    unit,
    goal: goal ? `${goal.op} ${goal.target}` : null,
    verdict,
    details: details && roundDeep(details),
  }
}

function skipped(unit: string, reason: string): Figure {
  return { value: null, min: null, max: null, reps: [], aggregate: 'median', unit, goal: null, verdict: 'not measured', skipped: reason }
}

export function meets(value: number, goal: Goal): boolean {
  if (goal.op === '>=') return value >= goal.target
  if (goal.op === '<=') return value <= goal.target
  return value < goal.target
}

export function goalOf(key: string): Goal | undefined {
  return GOALS[key as (typeof MEASURED_KEYS)[number]]
}

function seriesDetails(series: SeriesResult[]): Record<string, unknown> {
  const cpu = series.flatMap((s) => (s.cpuMsPer1k ? [s.cpuMsPer1k] : []))
  return {
    requests_per_rep: series.map((s) => s.ok),
    errors: sum(series.map((s) => s.errors)),
    first_error: series.find((s) => s.firstError)?.firstError,
    stopped_by_time_bound: series.filter((s) => s.stoppedBy === 'time').length,
    ...latencyDetails(series.map((s) => s.latency)),
    cpu_ms_per_1k_requests: cpu.length ? { server: med(cpu.map((c) => c.server)), client: med(cpu.map((c) => c.client)) } : undefined,
  }
}

function latencyDetails(ls: Percentiles[]): Record<string, number> {
  return { p50_ms: med(ls.map((l) => l.p50)), p90_ms: med(ls.map((l) => l.p90)), p99_ms: med(ls.map((l) => l.p99)), max_ms: med(ls.map((l) => l.max)) }
}

function latencyRow(scenario: string, ls: Percentiles[]): LatencyRow {
  const d = latencyDetails(ls)
  return { scenario, p50: d.p50_ms!, p90: d.p90_ms!, p99: d.p99_ms!, max: d.max_ms! }
}

function med(values: number[]): number {
  return round(spread(values)?.median ?? Number.NaN)
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0)
}

function roundDeep(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue
    out[k] = typeof x === 'number' ? (Number.isFinite(x) ? round(x) : null) : x
  }
  return out
}
