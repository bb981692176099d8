import { describe, expect, it } from 'vitest'
import { ALL_KEYS, buildReport, PENDING_KEYS, PENDING_REASON, type RepResult } from '../../src/bench/report/model'
import { renderMarkdown } from '../../src/bench/report/markdown'
import { renderSvg } from '../../src/bench/report/svg'
import { parseOptions, type BenchOptions } from '../../src/bench/options'
import type { SeriesResult } from '../../src/bench/scenarios/series'
import { percentiles } from '../../src/bench/stats'

const options = parseOptions(['--quick', '--out', '/tmp/unused']) as BenchOptions

function series(perSecond: number, latencies: number[]): SeriesResult {
  return { perSecond, ok: 1000, errors: 0, elapsedMs: 1000, stoppedBy: 'count', latency: percentiles(latencies) }
}

function rep(scale: number, withEtcd: boolean): RepResult {
  return {
    etcd: withEtcd ? { put: series(1000 * scale, [5, 10, 20]) } : undefined,
    floor: { insert: series(600 * scale, [10, 20, 40]) },
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
      bundle: scale === 1 ? { gzipBytes: 200_000, rawBytes: 1_000_000, gzipWithSourceMapBytes: 800_000 } : undefined,
    },
  }
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
    expect(r.results.create_per_s_c16).toMatchObject({ value: 450, min: 225, max: 675, verdict: 'meets', goal: '>= 400', unit: 'req/s' })
    expect(r.results.create_vs_floor).toMatchObject({ value: 0.75, min: 0.75, max: 0.75, verdict: 'meets' })
    expect(r.results.create_vs_etcd).toMatchObject({ value: 0.45, verdict: 'reported' })
    expect(r.results.etcd_put_per_s_c16).toMatchObject({ value: 1000, verdict: 'reference' })
    expect(r.results.bundle_gzip_bytes).toMatchObject({ value: 200_000, verdict: 'meets', aggregate: 'single' })
    expect(r.results.rss_mb_peak).toMatchObject({ value: 225, aggregate: 'max', verdict: 'reported' })
    expect(r.results.list_10k_ms!.at).toBe('1,000 objects')
    for (const key of PENDING_KEYS) expect(r.results[key]).toMatchObject({ value: null, verdict: 'pending', pending: PENDING_REASON })
  })

  it('reports etcd figures as null with the reason when etcd was not run', () => {
    const r = buildReport(run(false), [rep(1, false)])
    expect(r.results.etcd_put_per_s_c16).toMatchObject({ value: null, verdict: 'not measured', skipped: 'etcd is not on PATH' })
    expect(r.results.create_vs_etcd!.value).toBeNull()
    expect(r.latency.map((l) => l.scenario).some((s) => s.includes('etcd'))).toBe(false)
  })

  it('renders a Markdown table row per key and an SVG bar per percentile', () => {
    const r = buildReport(run(true), [rep(1, true)])
    const md = renderMarkdown(r)
    expect(md).toContain('| key | goal | result (median [min–max]) | ratio/verdict |')
    for (const key of ALL_KEYS) expect(md).toContain(`| \`${key}\` |`)
    expect(md).toMatch(/\| `create_per_s_c16` \| ≥ 400 \| 450 req\/s at 1,000 objects \| meets \(1\.13× goal\) \|/)
    expect(md).toContain('pending: needs the node agent / workload controllers')
    const svg = renderSvg(r)
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trim().endsWith('</svg>')).toBe(true)
    expect(svg.match(/<rect x="\d+(\.\d+)?" y="\d+" width="[\d.]+" height="10"/g)?.length).toBe(r.latency.length * 3)
    expect(svg).toContain('ack→event')
  })
})

describe('bench options', () => {
  it('has full, quick and smoke sizes', () => {
    expect(parseOptions([])).toMatchObject({ mode: 'full', objects: 10_000, reps: 3, watchers: 100, concurrency: 16 })
    expect(parseOptions(['--quick'])).toMatchObject({ mode: 'quick', objects: 1_000, reps: 3, watchers: 20 })
    expect(parseOptions(['--quick', '--smoke'])).toMatchObject({ mode: 'smoke', objects: 50, reps: 1, watchers: 5, installEtcd: false })
    expect(parseOptions(['--no-etcd', '--reps', '5'])).toMatchObject({ etcd: 'skip', reps: 5 })
    expect(() => parseOptions(['--reps', 'x'])).toThrow(/positive integer/)
    expect(() => parseOptions(['--bogus'])).toThrow(/unknown argument/)
  })
})
