import { describe, expect, it } from 'vitest'
import { ALL_KEYS, WORKLOAD_KEYS } from '../../../../src/bench/report/keys'
import { buildReport, type RepResult } from '../../../../src/bench/report/model'
import { renderMarkdown } from '../../../../src/bench/report/markdown'
import { renderSvg } from '../../../../src/bench/report/svg'
import { parseOptions, type BenchOptions } from '../../../../src/bench/options'
import type { SeriesResult } from '../../../../src/bench/scenarios/series'
import type { WorkloadResult } from '../../../../src/bench/scenarios/workload'
import { percentiles } from '../../../../src/bench/stats'
import { growth, parseControllerMetrics } from '../../../../src/bench/metrics'

const options = parseOptions(['--quick', '--out', '/tmp/unused']) as BenchOptions

function series(perSecond: number, latencies: number[]): SeriesResult {
  return {
    perSecond,
    ok: 1000,
    errors: 0,
    elapsedMs: 1000,
    stoppedBy: 'count',
    latency: percentiles(latencies),
  }
}

function rep(scale: number, withEtcd: boolean): RepResult {
  return {
    etcd: withEtcd ? { put: series(1000 * scale, [5, 10, 20]) } : undefined,
    floor: { insert: series(600 * scale, [10, 20, 40]), get: series(1200 * scale, [4, 8, 12]) },
    cp: {
      create: series(450 * scale, [20, 40, 80]),
      get: series(900 * scale, [5, 10, 15]),
      list: { callsMs: [100, 120, 110], medianMs: 110 / scale, items: 1000, bytes: 1_100_000 },
      watch: {
        watchers: 20,
        writes: 200,
        writesPerSecond: 150,
        ackToEvent: percentiles([0, 0, 2]),
        ackToEventSigned: percentiles([-1, -0.5, 2]),
        sendToEvent: percentiles([3, 5, 9]),
        beforeAck: 0.66,
        delivered: 4000,
        lost: 0,
      },
      rssPeakMb: 150 * scale,
      bundle:
        scale === 1
          ? { gzipBytes: 200_000, rawBytes: 1_000_000, gzipWithSourceMapBytes: 800_000 }
          : undefined,
    },
  }
}

const workload: WorkloadResult = {
  sizes: options.workload!,
  schedule: {
    pods: 200,
    nodes: 20,
    seconds: 1.6,
    podsPerSecond: 125,
    createSeconds: 1,
    createErrors: 0,
  },
  deploy: { replicas: 200, nodes: 20, seconds: 25, podsRunningSeconds: 24 },
  replace: { replicas: 10, trials: 20, failed: 0, latency: percentiles([300, 400, 1200]) },
  nodeLoss: { error: 'timed out after 120 s waiting for 10 replicas Running on other nodes' },
  idle: {
    pods: 100,
    clusterPods: 410,
    nodes: 20,
    windowSeconds: 20,
    alarmsPerMinute: 12,
    alarms: { replicaset: 0, 'node-lifecycle': 3, scheduler: 1 },
    notifications: { replicaset: 0, 'node-lifecycle': 40, scheduler: 2 },
    reconciles: { replicaset: 0, 'node-lifecycle': 60, scheduler: 0 },
  },
  podStart: {
    docker: { runtime: 'docker', pods: 20, latency: percentiles([700, 900, 1500]) },
    process: { error: 'no container engine answers on its socket' },
  },
  controllers: 7,
}

const run = (etcd: boolean) => ({
  options,
  startedAt: new Date('2026-01-01T00:00:00Z'),
  finishedAt: new Date('2026-01-01T00:01:00Z'),
  etcd: etcd ? { version: '3.4.23' } : { skipped: 'etcd is not on PATH' },
  environment: { node: 'v20', cpus: 2, loadavg_at_start: 1, loadavg_at_end: 1 },
})

describe('bench report', () => {
  it('has every key, medians with ranges, ratios per repetition and verdicts against the goals', () => {
    const r = buildReport(run(true), [rep(1, true), rep(0.5, true), rep(1.5, true)])
    expect(Object.keys(r.results).sort()).toEqual([...ALL_KEYS].sort())
    expect(r.results.create_per_s_c16).toMatchObject({
      value: 450,
      min: 225,
      max: 675,
      verdict: 'meets',
      goal: '>= 400',
      unit: 'req/s',
    })
    expect(r.results.create_vs_floor).toMatchObject({
      value: 0.75,
      min: 0.75,
      max: 0.75,
      verdict: 'meets',
    })
    expect(r.results.create_vs_etcd).toMatchObject({ value: 0.45, verdict: 'reported' })
    expect(r.results.etcd_put_per_s_c16).toMatchObject({ value: 1000, verdict: 'reference' })
    expect(r.results.bundle_gzip_bytes).toMatchObject({
      value: 200_000,
      verdict: 'meets',
      aggregate: 'single',
    })
    expect(r.results.rss_mb_peak).toMatchObject({
      value: 225,
      aggregate: 'max',
      verdict: 'reported',
    })
    expect(r.results.list_10k_ms!.at).toBe('1,000 objects')
    for (const key of WORKLOAD_KEYS)
      expect(r.results[key]).toMatchObject({
        value: null,
        verdict: 'not measured',
        skipped: 'workload scenarios skipped with --no-workload',
      })
  })

  it('reports each workload key once, at its size, with a goal verdict or the reason it has none', () => {
    const r = buildReport(run(true), [rep(1, true)], workload)
    expect(r.results.schedule_pods_per_s).toMatchObject({
      value: 125,
      verdict: 'meets',
      goal: '>= 100',
      aggregate: 'single',
      at: '200 pods, 20 nodes',
    })
    expect(r.results.deploy_1000_over_100_nodes_s).toMatchObject({
      value: 25,
      verdict: 'misses',
      goal: '<= 20',
      at: '200 replicas, 20 nodes',
    })
    expect(r.results.pod_replace_p99_ms).toMatchObject({
      value: 1200,
      verdict: 'misses',
      at: '20 trials',
    })
    expect(r.results.container_pod_start_p99_ms).toMatchObject({
      value: 1500,
      unit: 'ms',
      goal: '<= 5000',
      verdict: 'meets',
    })
    expect(r.results.process_pod_start_p99_ms).toMatchObject({
      value: null,
      verdict: 'not measured',
      skipped: 'no container engine answers on its socket',
    })
    expect(r.results.node_loss_recover_s).toMatchObject({
      value: null,
      verdict: 'not measured',
      goal: '<= 20',
      skipped: expect.stringContaining('timed out'),
    })
    expect(r.results.idle_controller_alarms_per_min).toMatchObject({
      value: 12,
      verdict: 'misses',
      goal: '<= 1',
      unit: 'alarms/min',
      at: '100 pods, 20 nodes, 20 s',
    })
    expect(r.results.idle_controller_alarms_per_min!.details).toMatchObject({
      controllers: 7,
      alarms_per_min_by_controller: { replicaset: 0, 'node-lifecycle': 9, scheduler: 3 },
      cluster_pods: 410,
    })
    const busy = buildReport(run(true), [rep(1, true)], {
      ...workload,
      idle: { ...(workload.idle as object), alarmsPerMinute: 0 } as WorkloadResult['idle'],
    })
    expect(busy.results.idle_controller_alarms_per_min).toMatchObject({
      value: 0,
      verdict: 'meets',
    })
    const failed = buildReport(run(true), [rep(1, true)], {
      ...workload,
      idle: { error: 'GET /metrics answered 403' },
    })
    expect(failed.results.idle_controller_alarms_per_min).toMatchObject({
      value: null,
      verdict: 'not measured',
      goal: '<= 1',
      skipped: 'GET /metrics answered 403',
    })
    expect(r.meta.workload).toMatchObject({ nodes: 20, schedule_pods: 200 })
    const md = renderMarkdown(r)
    expect(md).toMatch(
      /\| `schedule_pods_per_s` \| ≥ 100 \| 125 pods\/s at 200 pods, 20 nodes \| meets \(1\.25× goal\) \|/,
    )
    expect(md).toContain('Workload keys are measured once per run')
    expect(md).toMatch(
      /\| `idle_controller_alarms_per_min` \| ≤ 1 \| 12 alarms\/min at 100 pods, 20 nodes, 20 s \| misses \(12× goal\) \|/,
    )
  })

  it('reports etcd figures as null with the reason when etcd was not run', () => {
    const r = buildReport(run(false), [rep(1, false)])
    expect(r.results.etcd_put_per_s_c16).toMatchObject({
      value: null,
      verdict: 'not measured',
      skipped: 'etcd is not on PATH',
    })
    expect(r.results.create_vs_etcd!.value).toBeNull()
    expect(r.latency.map((l) => l.scenario).some((s) => s.includes('etcd'))).toBe(false)
  })

  it('reads the controller series of a Prometheus text page and their growth', () => {
    const text = [
      '# HELP edgeplane_controller_alarms_total Alarms fired by the controller host (every wake-up).',
      '# TYPE edgeplane_controller_alarms_total counter',
      'edgeplane_controller_alarms_total{controller="replicaset"} 12',
      'edgeplane_controller_alarms_total{controller="node-lifecycle"} 40',
      'edgeplane_controller_reconcile_passes_total{controller="replicaset"} 11',
    ].join('\n')
    const before = parseControllerMetrics(text)
    expect(before.get('replicaset')).toEqual({
      edgeplane_controller_alarms_total: 12,
      edgeplane_controller_reconcile_passes_total: 11,
    })
    const after = parseControllerMetrics(text.replace('} 12', '} 15').replace('} 40', '} 41'))
    expect(growth(before, after, 'edgeplane_controller_alarms_total')).toEqual({
      replicaset: 3,
      'node-lifecycle': 1,
    })
  })

  it('renders a Markdown table row per key and an SVG bar per percentile', () => {
    const r = buildReport(run(true), [rep(1, true)])
    const md = renderMarkdown(r)
    expect(md).toContain('| key | goal | result (median [min–max]) | ratio/verdict |')
    for (const key of ALL_KEYS) expect(md).toContain(`| \`${key}\` |`)
    expect(md).toMatch(
      /\| `create_per_s_c16` \| ≥ 400 \| 450 req\/s at 1,000 objects \| meets \(1\.13× goal\) \|/,
    )
    expect(md).toContain('not measured: workload scenarios skipped with --no-workload')
    const svg = renderSvg(r)
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trim().endsWith('</svg>')).toBe(true)
    expect(svg.match(/<rect x="\d+(\.\d+)?" y="\d+" width="[\d.]+" height="10"/g)?.length).toBe(
      r.latency.length * 3,
    )
    expect(svg).toContain('ack→event')
  })
})

describe('bench options', () => {
  it('has full, quick and smoke sizes', () => {
    expect(parseOptions([])).toMatchObject({
      mode: 'full',
      objects: 10_000,
      reps: 3,
      watchers: 100,
      concurrency: 16,
    })
    expect(parseOptions(['--quick'])).toMatchObject({
      mode: 'quick',
      objects: 1_000,
      reps: 3,
      watchers: 20,
    })
    expect(parseOptions(['--quick', '--smoke'])).toMatchObject({
      mode: 'smoke',
      objects: 50,
      reps: 1,
      watchers: 5,
      installEtcd: false,
    })
    expect(parseOptions(['--no-etcd', '--reps', '5'])).toMatchObject({ etcd: 'skip', reps: 5 })
    expect(parseOptions([])).toMatchObject({
      workload: {
        nodes: 100,
        schedulePods: 1_000,
        deployReplicas: 1_000,
        replaceTrials: 100,
        lossPods: 10,
      },
    })
    expect(parseOptions([])).toMatchObject({ workload: { idlePods: 100, idleWindowMs: 60_000 } })
    expect(parseOptions(['--quick'])).toMatchObject({
      workload: {
        nodes: 20,
        schedulePods: 200,
        deployReplicas: 200,
        replaceTrials: 20,
        idlePods: 100,
        idleWindowMs: 30_000,
      },
    })
    expect(parseOptions(['--quick', '--smoke'])).toMatchObject({
      workload: {
        nodes: 3,
        schedulePods: 10,
        replaceTrials: 3,
        idleWindowMs: 5_000,
        oneCluster: true,
      },
    })
    expect(parseOptions(['--no-workload'])).toMatchObject({ workload: null })
    expect(() => parseOptions(['--reps', 'x'])).toThrow(/positive integer/)
    expect(() => parseOptions(['--bogus'])).toThrow(/unknown argument/)
  })
})
