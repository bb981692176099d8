import type { BenchOptions } from '../options'
import type { ControlPlaneRep } from '../scenarios/control-plane'
import type { Outcome, WorkloadResult } from '../scenarios/workload'
import type { SeriesResult } from '../scenarios/series'
import { ROUNDS } from '../scenarios/rbac'
import type { PodStartResult } from '../scenarios/pod-start'
import type { DataPathResult } from '../scenarios/datapath'
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
  'floor_do_get_p99_ms',
  'list_10k_ms',
  'watch_p99_ms_100',
  'bundle_gzip_bytes',
  'rss_mb_peak',
  'create_rbac_vs_admin',
  'create_webhook_vs_unselected',
] as const

/** Measured once per run, with simulated node agents, at the sizes of `WorkloadSizes`. */
export const WORKLOAD_KEYS = [
  'schedule_pods_per_s',
  'deploy_1000_over_100_nodes_s',
  'pod_replace_p99_ms',
  'node_loss_recover_s',
  'idle_alarms_per_min',
  'container_pod_start_p99_ms',
  'process_pod_start_p99_ms',
] as const

/** The edge data path (Ingress through node tunnels, port-forward), measured once with one process node. */
export const DATAPATH_KEYS = ['ingress_rps', 'ingress_p99_ms', 'ingress_vs_direct', 'port_forward_mb_per_s', 'nodeport_rps', 'nodeport_p99_ms'] as const

export const ALL_KEYS = [...MEASURED_KEYS, ...WORKLOAD_KEYS, ...DATAPATH_KEYS]

type Key = (typeof ALL_KEYS)[number]

/** Each controller host may wake for its periodic resync every 30 s, and no more when nothing changes. */
const IDLE_PASSES_PER_CONTROLLER_PER_MIN = 60 / 30

const GOALS: Partial<Record<Key, Goal>> = {
  create_per_s_c16: { op: '>=', target: 400 },
  create_vs_floor: { op: '>=', target: 0.6 },
  create_rbac_vs_admin: { op: '>=', target: 0.9 },
  create_p99_ms: { op: '<=', target: 100 },
  get_p99_ms: { op: '<=', target: 20 },
  list_10k_ms: { op: '<=', target: 600 },
  watch_p99_ms_100: { op: '<=', target: 100 },
  bundle_gzip_bytes: { op: '<', target: 1024 * 1024 },
  schedule_pods_per_s: { op: '>=', target: 100 },
  deploy_1000_over_100_nodes_s: { op: '<=', target: 20 },
  pod_replace_p99_ms: { op: '<=', target: 1000 },
  node_loss_recover_s: { op: '<=', target: 20 },
  // The Kubernetes pod-startup SLO: created → Running within 5 s at p99, images pre-pulled.
  container_pod_start_p99_ms: { op: '<=', target: 5000 },
  process_pod_start_p99_ms: { op: '<=', target: 5000 },
}

/** What one repetition measured; etcd is absent when it was skipped. */
export interface RepResult {
  etcd?: { put: SeriesResult }
  floor: { insert: SeriesResult; get: SeriesResult }
  cp: ControlPlaneRep
}

export interface RunInfo {
  options: BenchOptions
  startedAt: Date
  finishedAt: Date
  etcd: { version: string } | { skipped: string }
  environment: Record<string, unknown>
}

export function buildReport(run: RunInfo, reps: RepResult[], workload?: WorkloadResult, dataPath?: Outcome<DataPathResult>): Report {
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
  results.floor_do_get_p99_ms = figure('floor_do_get_p99_ms', 'ms', reps.map((r) => r.floor.get.latency.p99), 'median', {
    what: 'the same reads from a bare Worker → Durable Object SQLite select by name: the floor under get_p99_ms',
    ...latencyDetails(reps.map((r) => r.floor.get.latency)),
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
  const rbac = cp.flatMap((r) => (r.rbac ? [r.rbac] : []))
  results.create_rbac_vs_admin = rbac.length
    ? figure('create_rbac_vs_admin', 'ratio', rbac.map((r) => r.serviceAccount.perSecond / r.admin.perSecond), 'median', {
        what: 'configmap creates per second with a service-account token bound to `edit` ÷ the same creates with the admin token, per repetition',
        creates_per_identity: rbac[0]!.admin.ok,
        rounds: ROUNDS,
        admin_per_s: med(rbac.map((r) => r.admin.perSecond)),
        service_account_per_s: med(rbac.map((r) => r.serviceAccount.perSecond)),
        service_account_errors: sum(rbac.map((r) => r.serviceAccount.errors)),
      })
    : skipped('ratio', 'no repetition measured it')
  const hooked = cp.flatMap((r) => (r.webhook ? [r.webhook] : []))
  results.create_webhook_vs_unselected = hooked.length
    ? figure('create_webhook_vs_unselected', 'ratio', hooked.map((r) => r.hooked.perSecond / r.unselected.perSecond), 'median', {
        what: 'configmap creates per second that each call a validating url webhook (served by the bench over https) ÷ the same creates in a namespace the webhook does not select, per repetition',
        creates_per_series: hooked[0]!.hooked.ok,
        rounds: ROUNDS,
        hooked_per_s: med(hooked.map((r) => r.hooked.perSecond)),
        unselected_per_s: med(hooked.map((r) => r.unselected.perSecond)),
        webhook_calls: sum(hooked.map((r) => r.calls)),
        hooked_errors: sum(hooked.map((r) => r.hooked.errors)),
      })
    : skipped('ratio', 'no repetition measured it')
  if (o.objects !== 10_000) {
    for (const key of ['create_per_s_c16', 'floor_do_insert_per_s_c16', 'create_vs_floor', 'etcd_put_per_s_c16', 'create_vs_etcd', 'create_p99_ms', 'get_p99_ms', 'floor_do_get_p99_ms', 'list_10k_ms']) {
      if (results[key]!.value !== null) results[key]!.at = `${o.objects.toLocaleString('en-US')} objects`
    }
  }
  if (o.watchers !== 100 && results.watch_p99_ms_100!.value !== null) results.watch_p99_ms_100!.at = `${o.watchers} watchers`
  Object.assign(results, workloadFigures(workload))
  Object.assign(results, dataPathFigures(dataPath))

  const latency: LatencyRow[] = [
    latencyRow(`create, API (c=${o.concurrency})`, cp.map((r) => r.create.latency)),
    latencyRow(`insert, floor Worker→DO (c=${o.concurrency})`, reps.map((r) => r.floor.insert.latency)),
    ...(etcdReps.length ? [latencyRow(`put, etcd gateway (c=${o.concurrency})`, etcdReps.map((s) => s.latency))] : []),
    latencyRow(`get, API (c=${o.concurrency})`, cp.map((r) => r.get.latency)),
    latencyRow(`get, floor Worker→DO (c=${o.concurrency})`, reps.map((r) => r.floor.get.latency)),
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
      workload: o.workload ? { nodes: o.workload.nodes, schedule_pods: o.workload.schedulePods, deploy_replicas: o.workload.deployReplicas, replace_trials: o.workload.replaceTrials, idle_pods: o.workload.idlePods, idle_window_s: o.workload.idleWindowMs / 1000, node_loss_pods: o.workload.lossPods } : 'skipped',
      etcd: run.etcd,
      ...run.environment,
    },
    results,
    latency,
  }
}

function figure(key: Key, unit: string, values: number[], aggregate: Figure['aggregate'], details?: Record<string, unknown>): Figure {
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

function skipped(unit: string, reason: string, goal?: Goal): Figure {
  return { value: null, min: null, max: null, reps: [], aggregate: 'median', unit, goal: goal ? `${goal.op} ${goal.target}` : null, verdict: 'not measured', skipped: reason }
}

/** One figure per workload key: measured once, so its value is the single run's. */
function workloadFigures(w: WorkloadResult | undefined): Record<(typeof WORKLOAD_KEYS)[number], Figure> {
  const none = (unit: string, key: Key) => skipped(unit, 'workload scenarios skipped with --no-workload', GOALS[key])
  if (!w) {
    return {
      schedule_pods_per_s: none('pods/s', 'schedule_pods_per_s'),
      deploy_1000_over_100_nodes_s: none('s', 'deploy_1000_over_100_nodes_s'),
      pod_replace_p99_ms: none('ms', 'pod_replace_p99_ms'),
      node_loss_recover_s: none('s', 'node_loss_recover_s'),
      idle_alarms_per_min: none('alarms/min', 'idle_alarms_per_min'),
      container_pod_start_p99_ms: none('ms', 'container_pod_start_p99_ms'),
      process_pod_start_p99_ms: none('ms', 'process_pod_start_p99_ms'),
    }
  }
  const s = w.sizes
  const one = <T extends object>(key: Key, unit: string, o: Outcome<T>, value: (r: T) => number, details: (r: T) => Record<string, unknown>, at?: string): Figure => {
    if ('error' in o) return skipped(unit, o.error, GOALS[key])
    const f = figure(key, unit, [value(o)], 'single', details(o))
    if (at) f.at = at
    return f
  }
  return {
    schedule_pods_per_s: one(
      'schedule_pods_per_s',
      'pods/s',
      w.schedule,
      (r) => r.podsPerSecond,
      (r) => ({
        pods: r.pods,
        nodes: r.nodes,
        seconds: r.seconds,
        create_seconds: r.createSeconds,
        create_errors: r.createErrors,
        ...(r.createFirstError ? { create_first_error: r.createFirstError } : {}),
        what: 'pods created through the API at c=16 onto Ready sim nodes; first create sent → last pod seen bound (watch), pods ÷ that time',
      }),
      s.schedulePods === 1_000 && s.nodes === 100 ? undefined : `${s.schedulePods} pods, ${s.nodes} nodes`,
    ),
    deploy_1000_over_100_nodes_s: one(
      'deploy_1000_over_100_nodes_s',
      's',
      w.deploy,
      (r) => r.seconds,
      (r) => ({
        replicas: r.replicas,
        nodes: r.nodes,
        pods_running_s: r.podsRunningSeconds,
        what: 'Deployment created → every pod Running (watch) and status.availableReplicas = replicas at its generation (polled)',
      }),
      s.deployReplicas === 1_000 && s.nodes === 100 ? undefined : `${s.deployReplicas} replicas, ${s.nodes} nodes`,
    ),
    pod_replace_p99_ms: one(
      'pod_replace_p99_ms',
      'ms',
      w.replace,
      (r) => r.latency.p99,
      (r) => ({
        trials: r.trials,
        timed_out: r.failed,
        replicas: r.replicas,
        p50_ms: r.latency.p50,
        p90_ms: r.latency.p90,
        max_ms: r.latency.max,
        what: 'DELETE of one Running pod of a Deployment → a new pod of it seen Running (watch), sequential trials',
      }),
      s.replaceTrials === 100 ? undefined : `${s.replaceTrials} trials`,
    ),
    node_loss_recover_s: one(
      'node_loss_recover_s',
      's',
      w.nodeLoss,
      (r) => r.seconds,
      (r) => ({
        pods: r.pods,
        spare_nodes: r.spareNodes,
        grace_period_s: r.gracePeriodSeconds,
        toleration_s: r.tolerationSeconds,
        first_eviction_s: r.firstEvictionSeconds,
        what: 'sim agent hosting every replica killed with its process group → all replicas Running on other nodes (watch)',
      }),
      s.lossPods === 10 ? undefined : `${s.lossPods} pods`,
    ),
    idle_alarms_per_min: idleFigure(w),
    container_pod_start_p99_ms: one('container_pod_start_p99_ms', 'ms', w.podStart.docker, (r) => r.latency.p99, (r) => podStartDetails(r, 'the docker runtime against the local container engine (Docker or Podman), a local image')),
    process_pod_start_p99_ms: one('process_pod_start_p99_ms', 'ms', w.podStart.process, (r) => r.latency.p99, (r) => podStartDetails(r, 'the process runtime (sleep as a host process)')),
  }
}

function podStartDetails(r: PodStartResult, runtime: string): Record<string, unknown> {
  return {
    pods: r.pods,
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    max_ms: r.latency.max,
    what: `${r.pods} pods created at once on one node agent with ${runtime}: pod POST sent → the pod seen Running (watch)`,
  }
}

/**
 * Alarms per minute of every controller host together while the converged cluster idles, against
 * one resync per controller per 30 s; per controller in the details.
 */
function idleFigure(w: WorkloadResult): Figure {
  const goal: Goal = { op: '<=', target: w.controllers * IDLE_PASSES_PER_CONTROLLER_PER_MIN }
  const basis = { controllers: w.controllers, goal_basis: `${w.controllers} controllers × (60 / 30 s resync)` }
  const idle = w.idle
  if ('error' in idle) return { ...skipped('alarms/min', idle.error, goal), details: basis }
  const perMinute = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).map(([c, n]) => [c, round((n * 60) / idle.windowSeconds)]))
  const f = figure('idle_alarms_per_min', 'alarms/min', [idle.alarmsPerMinute], 'single', {
    ...basis,
    window_s: idle.windowSeconds,
    nodes: idle.nodes,
    pods: idle.pods,
    cluster_pods: idle.clusterPods,
    alarms_per_min_by_controller: perMinute(idle.alarms),
    notifications_per_min_by_controller: perMinute(idle.notifications),
    reconciles_in_window_by_controller: idle.reconciles,
    what: 'a Deployment converged over the sim nodes, then GET /metrics (edgeplane_controller_alarms_total) read before and after an idle window; node heartbeats go on',
  })
  f.goal = `${goal.op} ${goal.target}`
  f.verdict = meets(idle.alarmsPerMinute, goal) ? 'meets' : 'misses'
  const nominal = w.sizes.idlePods === 100 && w.sizes.nodes === 100 && w.sizes.idleWindowMs === 60_000
  if (!nominal) f.at = `${idle.pods} pods, ${idle.nodes} nodes, ${round(idle.windowSeconds)} s`
  return f
}

export function meets(value: number, goal: Goal): boolean {
  if (goal.op === '>=') return value >= goal.target
  if (goal.op === '<=') return value <= goal.target
  return value < goal.target
}

export function goalOf(key: string): Goal | undefined {
  return GOALS[key as Key]
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

/** The data path's figures: the edge against the same pod served directly, and one port-forward transfer. */
function dataPathFigures(d: Outcome<DataPathResult> | undefined): Record<(typeof DATAPATH_KEYS)[number], Figure> {
  const why = d === undefined ? 'the data path is measured with the workload scenarios (skipped with --no-workload)' : 'error' in d ? d.error : undefined
  if (d === undefined || 'error' in d) {
    return {
      ingress_rps: skipped('req/s', why!),
      ingress_p99_ms: skipped('ms', why!),
      ingress_vs_direct: skipped('ratio', why!),
      port_forward_mb_per_s: skipped('MiB/s', why!),
      nodeport_rps: skipped('req/s', why!),
      nodeport_p99_ms: skipped('ms', why!),
    }
  }
  const at = d.requests === 4_000 ? undefined : `${d.requests} requests`
  const where =
    'per edge request: route table (cached 1 s) → Service and Endpoints reads (2 Durable Object calls) → a WebSocket from the Worker to the node gateway → open message over the agent tunnel → the agent\'s HTTP request to the pod → head and body frames back the same way'
  const edge = { requests: d.requests, concurrency: d.concurrency, errors: d.ingress.errors, p50_ms: d.ingress.latency.p50, where_the_time_goes: where }
  const f = (key: Key, unit: string, value: number, details: Record<string, unknown>) => {
    const fig = figure(key, unit, [value], 'single', details)
    if (at) fig.at = at
    return fig
  }
  return {
    ingress_rps: f('ingress_rps', 'req/s', d.ingress.perSecond, { ...edge, what: `GET / through the ingress port at c=${d.concurrency} to a process-runtime pod` }),
    ingress_p99_ms: f('ingress_p99_ms', 'ms', d.ingress.latency.p99, edge),
    ingress_vs_direct: f('ingress_vs_direct', 'ratio', d.ingress.perSecond / d.direct.perSecond, {
      direct_rps: d.direct.perSecond,
      direct_p99_ms: d.direct.latency.p99,
      what: 'ingress_rps ÷ the same GETs sent straight to the pod port in the same run',
    }),
    port_forward_mb_per_s:
      'error' in d.portForward
        ? skipped('MiB/s', d.portForward.error)
        : f('port_forward_mb_per_s', 'MiB/s', d.portForward.mbPerSecond, {
            bytes: d.portForward.bytes,
            seconds: d.portForward.seconds,
            what: 'one GET of the bytes through kubectl port-forward (SPDY in WebSocket → node gateway → agent → pod), request to last byte',
          }),
    ...nodePortFigures(d.nodePort, d.concurrency, f),
  }
}

/** The NodePort of a second node, whose only endpoint is on the first: the node-to-node tunnel path. */
function nodePortFigures(np: DataPathResult['nodePort'], concurrency: number, f: (key: Key, unit: string, value: number, details: Record<string, unknown>) => Figure): Record<'nodeport_rps' | 'nodeport_p99_ms', Figure> {
  if ('error' in np) return { nodeport_rps: skipped('req/s', np.error), nodeport_p99_ms: skipped('ms', np.error) }
  const details = {
    errors: np.errors,
    p50_ms: np.latency.p50,
    what: `GET / at c=${concurrency} to the NodePort of a process node without the pod (new TCP connections per client socket kept alive)`,
    where_the_time_goes: 'per connection: the Service and Endpoints check in the gateway (cached 1 s) and a WebSocket from one node gateway to the other; per request: the bytes as frames through the agent tunnel, both gateways and the far agent',
  }
  return {
    nodeport_rps: f('nodeport_rps', 'req/s', np.perSecond, details),
    nodeport_p99_ms: f('nodeport_p99_ms', 'ms', np.latency.p99, details),
  }
}
