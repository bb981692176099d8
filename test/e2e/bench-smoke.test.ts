import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import {
  COST_KEYS,
  DATAPATH_KEYS,
  FOOTPRINT_KEYS,
  GOALS,
  MEASURED_KEYS,
  meets,
  WORKLOAD_KEYS,
  type Goal,
  type Key,
} from '../../src/bench/report/keys'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
// The workload, data path and footprint scenarios each start another control plane and agents; on a
// loaded machine they start slowly.
const RUN_TIMEOUT_MS = 270_000

// Every key the report declares; pod startup runs real node agents, and the docker runtime's figure needs the engine .ci/containers.sh sets up.
const MEASURED = MEASURED_KEYS
const WORKLOAD = WORKLOAD_KEYS
const DATAPATH = DATAPATH_KEYS
const FOOTPRINT = FOOTPRINT_KEYS
const COST = COST_KEYS
const ALL = [...MEASURED, ...WORKLOAD, ...DATAPATH, ...FOOTPRINT, ...COST]
// Only etcd may be missing on a machine; anything else unmeasured means the harness broke.
const MAY_BE_SKIPPED = new Set(['etcd_put_per_s_c16', 'create_vs_etcd', 'rss_mb_peak'])
// The event usually reaches the watcher before the write's own response: 0 is a real figure there,
// as is no alarm at all in a short idle window, and an idle bill within the plan's included amounts.
const MAY_BE_ZERO = new Set([
  'watch_p99_ms_100',
  'idle_controller_alarms_per_min',
  'idle_alarms_per_min',
  'idle_usd_per_month_100_nodes',
])

interface Figure {
  value: number | null
  min: number | null
  max: number | null
  goal: string | null
  verdict: string
  pending?: string
  skipped?: string
  details?: Record<string, unknown>
}

/** The goal a figure is held to: its key's. */
function goalFor(key: string): Goal | undefined {
  return GOALS[key as Key]
}

/** A measured figure: finite, above zero unless zero is a real outcome, and judged by its own goal. */
function expectMeasured(key: string, f: Figure): void {
  expect(f.value, `${key}: ${f.skipped}`).not.toBeNull()
  expect(Number.isFinite(f.value), key).toBe(true)
  if (MAY_BE_ZERO.has(key)) expect(f.value!, key).toBeGreaterThanOrEqual(0)
  else expect(f.value!, key).toBeGreaterThan(0)
  const goal = goalFor(key)
  expect(f.goal, key).toBe(goal ? `${goal.op} ${goal.target}` : null)
  const verdict = goal
    ? meets(f.value!, goal)
      ? 'meets'
      : 'misses'
    : key.startsWith('floor_') || key.startsWith('etcd_')
      ? 'reference'
      : 'reported'
  expect(f.verdict, key).toBe(verdict)
}

/** Runs the bench in its tiny mode the way `npm run bench -- --quick --smoke` does, into `out`. */
function runBench(out: string): Promise<{ code: number | null; output: string; ms: number }> {
  const t0 = Date.now()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/bench/run.ts', '--quick', '--smoke', '--out', out],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')))
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')))
  return new Promise((resolve) => {
    // SIGTERM lets the bench stop the servers it started; SIGKILL only if it does not exit.
    const term = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS)
    const kill = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS + 10_000)
    child.on('exit', (code) => {
      clearTimeout(term)
      clearTimeout(kill)
      resolve({ code, output, ms: Date.now() - t0 })
    })
  })
}

describe('npm run bench (smoke)', () => {
  let out: string | undefined

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true })
  })

  it(
    'runs end to end and writes a complete report, a table and a chart',
    async () => {
      out = await mkdtemp(join(tmpdir(), 'edgeplane-bench-smoke-'))
      const run = await runBench(out)
      expect(run.code, run.output).toBe(0)

      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as {
        meta: Record<string, unknown>
        results: Record<string, Figure>
      }
      expect(report.meta.mode).toBe('smoke')
      expect(Object.keys(report.results).sort()).toEqual([...ALL].sort())
      for (const key of ALL) {
        const f = report.results[key]!
        if (f.value === null && MAY_BE_SKIPPED.has(key)) {
          expect(f.verdict, key).toBe('not measured')
          expect(f.skipped, key).toBeTruthy()
          continue
        }
        expectMeasured(key, f)
      }
      expect(
        Object.keys(
          report.results.idle_controller_alarms_per_min!.details
            ?.alarms_per_min_by_controller as object,
        ),
      ).toContain('replicaset')
      // The footprint is of pods that were all created and started, within every production limit.
      expect(report.results.stored_pod_bytes!.details).toMatchObject({
        pods: 20,
        limits_exceeded: 0,
      })
      // The bill is of what the meter counted: lease renewals in the window, rows the rollout wrote.
      expect(report.results.rows_written_per_lease_renewal!.details?.renewals).toBeGreaterThan(0)
      expect(report.results.idle_usd_per_month_100_nodes!.details).toMatchObject({
        nodes: 3,
        pods: 10,
        plan_base_usd: 5,
      })
      // The idle alarms are every store's and every controller host's.
      expect(report.results.idle_alarms_per_min!.details).toHaveProperty('kind_store_alarms')
      expect(report.results.idle_alarms_per_min!.details).toHaveProperty('controller_host_alarms')

      const md = await readFile(join(out, 'report.md'), 'utf8')
      expect(md).toContain('| key | goal | result (median [min–max]) | ratio/verdict |')
      for (const key of ALL) expect(md).toContain(`| \`${key}\` |`)
      const svg = await readFile(join(out, 'chart.svg'), 'utf8')
      expect(svg.startsWith('<svg')).toBe(true)
      expect(svg.trim().endsWith('</svg>')).toBe(true)
      expect(svg).toContain('<rect')
    },
    RUN_TIMEOUT_MS + 20_000,
  )
})
