/** The benchmark report: every key's figure from the repetitions and the workload run, and the latency table. */
import type { BenchOptions } from '../options'
import type { ControlPlaneRep } from '../scenarios/control-plane'
import type { Outcome } from '../scenarios/outcome'
import type { WorkloadResult } from '../scenarios/workload'
import type { SeriesResult } from '../scenarios/series'
import { ROUNDS, type CreateRate } from '../scenarios/rbac'
import type { DataPathResult } from '../scenarios/datapath'
import type { FootprintResult } from '../scenarios/footprint'
import type { CostResult } from '../scenarios/cost'
import { costFigures } from './cost-figures'
import { round, type Percentiles } from '../stats'
import { dataPathFigures } from './datapath-figures'
import { footprintFigures } from './footprint-figures'
import { figure, latencyDetails, med, seriesDetails, skipped, sum, type Figure } from './figure'
import type { Key } from './keys'
import { workloadFigures } from './workload-figures'

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

export function buildReport(
  run: RunInfo,
  reps: RepResult[],
  workload?: WorkloadResult,
  dataPath?: Outcome<DataPathResult>,
  footprint?: Outcome<FootprintResult>,
  cost?: Outcome<CostResult>,
): Report {
  const o = run.options
  const etcdSkipped = 'skipped' in run.etcd ? run.etcd.skipped : undefined
  const cp = reps.map((r) => r.cp)
  const etcdReps = reps.flatMap((r) => (r.etcd ? [r.etcd.put] : []))
  const results: Record<string, Figure> = {}

  results.create_per_s_c16 = figure(
    'create_per_s_c16',
    'req/s',
    cp.map((r) => r.create.perSecond),
    'median',
    seriesDetails(cp.map((r) => r.create)),
  )
  results.floor_do_insert_per_s_c16 = figure(
    'floor_do_insert_per_s_c16',
    'req/s',
    reps.map((r) => r.floor.insert.perSecond),
    'median',
    seriesDetails(reps.map((r) => r.floor.insert)),
  )
  results.create_vs_floor = figure(
    'create_vs_floor',
    'ratio',
    reps.map((r) => r.cp.create.perSecond / r.floor.insert.perSecond),
    'median',
    {
      what: 'create_per_s_c16 ÷ floor_do_insert_per_s_c16, per repetition',
    },
  )
  if (etcdSkipped !== undefined) {
    results.etcd_put_per_s_c16 = skipped('req/s', etcdSkipped)
    results.create_vs_etcd = skipped('ratio', etcdSkipped)
  } else {
    results.etcd_put_per_s_c16 = figure(
      'etcd_put_per_s_c16',
      'req/s',
      etcdReps.map((s) => s.perSecond),
      'median',
      {
        etcd_version: (run.etcd as { version: string }).version,
        via: 'HTTP/JSON gateway POST /v3/kv/put',
        ...seriesDetails(etcdReps),
      },
    )
    results.create_vs_etcd = figure(
      'create_vs_etcd',
      'ratio',
      reps.map((r) => r.cp.create.perSecond / r.etcd!.put.perSecond),
      'median',
      {
        what: 'create_per_s_c16 ÷ etcd_put_per_s_c16, per repetition',
      },
    )
  }
  results.create_p99_ms = figure(
    'create_p99_ms',
    'ms',
    cp.map((r) => r.create.latency.p99),
    'median',
    latencyDetails(cp.map((r) => r.create.latency)),
  )
  results.get_p99_ms = figure(
    'get_p99_ms',
    'ms',
    cp.map((r) => r.get.latency.p99),
    'median',
    {
      ...latencyDetails(cp.map((r) => r.get.latency)),
      get_per_s: med(cp.map((r) => r.get.perSecond)),
      errors: sum(cp.map((r) => r.get.errors)),
    },
  )
  results.floor_do_get_p99_ms = figure(
    'floor_do_get_p99_ms',
    'ms',
    reps.map((r) => r.floor.get.latency.p99),
    'median',
    {
      what: 'the same reads from a bare Worker → Durable Object SQLite select by name: the floor under get_p99_ms',
      ...latencyDetails(reps.map((r) => r.floor.get.latency)),
    },
  )
  results.list_10k_ms = figure(
    'list_10k_ms',
    'ms',
    cp.map((r) => r.list.medianMs),
    'median',
    {
      objects: cp[0]?.list.items,
      bytes: cp[0]?.list.bytes,
      calls_per_rep: o.listCalls,
      calls_ms: cp.map((r) => r.list.callsMs.map(round)),
      what: 'GET /api/v1/configmaps (all namespaces, JSON), request sent → body parsed; median of the calls in each repetition',
    },
  )
  results.watch_p99_ms_100 = figure(
    'watch_p99_ms_100',
    'ms',
    cp.map((r) => r.watch.ackToEvent.p99),
    'median',
    {
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
    },
  )
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
    ? figure('rss_mb_peak', 'MiB', rss, 'max', {
        what: 'peak RSS (VmHWM and 250 ms samples) of the control plane workerd, highest over the repetitions',
      })
    : skipped('MiB', '/proc is not readable here')
  results.create_rbac_vs_admin = createRatio(
    'create_rbac_vs_admin',
    cp.flatMap((r) => (r.rbac ? [{ measured: r.rbac.serviceAccount, base: r.rbac.admin }] : [])),
    'configmap creates per second with a service-account token bound to `edit` ÷ the same creates with the admin token, per repetition',
    { count: 'creates_per_identity', measured: 'service_account', base: 'admin' },
  )
  results.create_rbac_psa_baseline_vs_admin = createRatio(
    'create_rbac_psa_baseline_vs_admin',
    cp.flatMap((r) =>
      r.podSecurity ? [{ measured: r.podSecurity.enforced, base: r.podSecurity.admin }] : [],
    ),
    'pod creates per second with a service-account token bound to `edit`, in a namespace where Pod Security enforces baseline ÷ the same pod creates with the admin token in an unlabelled (privileged) namespace, per repetition',
    { count: 'creates_per_identity', measured: 'service_account_baseline', base: 'admin' },
  )
  const hooked = cp.flatMap((r) => (r.webhook ? [r.webhook] : []))
  results.create_webhook_vs_unselected = createRatio(
    'create_webhook_vs_unselected',
    hooked.map((r) => ({ measured: r.hooked, base: r.unselected })),
    'configmap creates per second that each call a validating url webhook (served by the bench over https) ÷ the same creates in a namespace the webhook does not select, per repetition',
    { count: 'creates_per_series', measured: 'hooked', base: 'unselected' },
    { webhook_calls: sum(hooked.map((r) => r.calls)) },
  )
  results.create_vap_vs_none = createRatio(
    'create_vap_vs_none',
    cp.flatMap((r) => (r.policy ? [{ measured: r.policy.validated, base: r.policy.none }] : [])),
    'configmap creates per second that a ValidatingAdmissionPolicy binding selects (its CEL expressions evaluated) ÷ the same creates in a namespace no binding selects, per repetition',
    { count: 'creates_per_series', measured: 'validated', base: 'none' },
  )
  if (o.objects !== 10_000) {
    for (const key of [
      'create_per_s_c16',
      'floor_do_insert_per_s_c16',
      'create_vs_floor',
      'etcd_put_per_s_c16',
      'create_vs_etcd',
      'create_p99_ms',
      'get_p99_ms',
      'floor_do_get_p99_ms',
      'list_10k_ms',
    ]) {
      if (results[key]!.value !== null)
        results[key]!.at = `${o.objects.toLocaleString('en-US')} objects`
    }
  }
  if (o.watchers !== 100 && results.watch_p99_ms_100!.value !== null)
    results.watch_p99_ms_100!.at = `${o.watchers} watchers`
  Object.assign(results, workloadFigures(workload))
  Object.assign(results, dataPathFigures(dataPath))
  Object.assign(results, footprintFigures(footprint))
  Object.assign(results, costFigures(cost))

  const latency: LatencyRow[] = [
    latencyRow(
      `create, API (c=${o.concurrency})`,
      cp.map((r) => r.create.latency),
    ),
    latencyRow(
      `insert, floor Worker→DO (c=${o.concurrency})`,
      reps.map((r) => r.floor.insert.latency),
    ),
    ...(etcdReps.length
      ? [
          latencyRow(
            `put, etcd gateway (c=${o.concurrency})`,
            etcdReps.map((s) => s.latency),
          ),
        ]
      : []),
    latencyRow(
      `get, API (c=${o.concurrency})`,
      cp.map((r) => r.get.latency),
    ),
    latencyRow(
      `get, floor Worker→DO (c=${o.concurrency})`,
      reps.map((r) => r.floor.get.latency),
    ),
    latencyRow(
      `watch write ack→event (${o.watchers} watchers)`,
      cp.map((r) => r.watch.ackToEvent),
    ),
    latencyRow(
      `watch write sent→event (${o.watchers} watchers)`,
      cp.map((r) => r.watch.sendToEvent),
    ),
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
      workload: o.workload
        ? {
            nodes: o.workload.nodes,
            schedule_pods: o.workload.schedulePods,
            deploy_replicas: o.workload.deployReplicas,
            replace_trials: o.workload.replaceTrials,
            idle_pods: o.workload.idlePods,
            idle_window_s: o.workload.idleWindowMs / 1000,
            node_loss_pods: o.workload.lossPods,
            footprint_pods: o.workload.footprintPods,
          }
        : 'skipped',
      etcd: run.etcd,
      ...run.environment,
    },
    results,
    latency,
  }
}

function latencyRow(scenario: string, ls: Percentiles[]): LatencyRow {
  const d = latencyDetails(ls)
  return { scenario, p50: d.p50_ms!, p90: d.p90_ms!, p99: d.p99_ms!, max: d.max_ms! }
}

/**
 * The ratio of two create rates measured side by side in each repetition (the measured path ÷ its
 * baseline), with each side's median rate and the measured side's errors.
 */
function createRatio(
  key: Key,
  pairs: { measured: CreateRate; base: CreateRate }[],
  what: string,
  names: { count: string; measured: string; base: string },
  extra: Record<string, unknown> = {},
): Figure {
  if (!pairs.length) return skipped('ratio', 'no repetition measured it')
  return figure(
    key,
    'ratio',
    pairs.map((p) => p.measured.perSecond / p.base.perSecond),
    'median',
    {
      what,
      [names.count]: pairs[0]!.measured.ok,
      rounds: ROUNDS,
      [`${names.base}_per_s`]: med(pairs.map((p) => p.base.perSecond)),
      [`${names.measured}_per_s`]: med(pairs.map((p) => p.measured.perSecond)),
      ...extra,
      [`${names.measured}_errors`]: sum(pairs.map((p) => p.measured.errors)),
    },
  )
}
