// `npm run bench`: measures the control plane against the physical floor of its runtime (a bare
// Worker → Durable Object insert) and against etcd, all on 127.0.0.1, and writes
// bench/report.json, bench/report.md and bench/chart.svg. Options: `npm run bench -- --help`.
//
// Everything it starts (control plane, floor Worker, etcd, simulated node agents) runs in its own process group and is
// stopped when a repetition ends, on failure and on Ctrl-C.
import { cpus, loadavg } from 'node:os'
import { relative } from 'node:path'
import { findEtcd } from './etcd'
import { parseOptions, UsageError, USAGE } from './options'
import { stopAll } from './procs'
import { errorText, progress } from './progress'
import { buildReport, type RepResult, type RunInfo } from './report/model'
import { renderMarkdown } from './report/markdown'
import { writeReport } from './report/write'
import { REPO_ROOT } from './repo'
import { controlPlaneRep } from './scenarios/control-plane'
import { etcdRep } from './scenarios/etcd'
import { floorRep } from './scenarios/floor'
import { workloadRun, type WorkloadResult } from './scenarios/workload'
import { dataPathRun } from './scenarios/datapath'
import { scaleRun, writeScaleReport } from './scenarios/scale'
import { footprintRun } from './scenarios/footprint'
import { costRun } from './scenarios/cost'
import { writeCostReport } from './report/cost-report'

let interrupted = false

async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2))
  if (parsed === 'help') {
    console.log(USAGE)
    return
  }
  const o = parsed
  if (o.scale !== undefined) {
    progress(`wrote ${show(await writeScaleReport(o.outDir, await scaleRun(o, o.scale)))}`)
    return
  }
  if (o.cost) {
    const cost = await costRun(o)
    if ('error' in cost) throw new Error(`the cost scenario failed: ${cost.error}`)
    progress(`wrote ${show(await writeCostReport(o.outDir, cost))}`)
    return
  }
  const startedAt = new Date()
  const env = environment()
  progress(
    `bench (${o.mode}): ${o.reps} repetition(s) of ${o.objects} objects at c=${o.concurrency}, ${o.watchers} watchers × ${o.watchWrites} writes`,
  )

  let etcd: RunInfo['etcd']
  const found =
    o.etcd === 'skip' ? { missing: 'skipped with --no-etcd' } : await findEtcd(o.installEtcd)
  if ('missing' in found) {
    etcd = { skipped: found.missing }
    progress(`etcd: ${found.missing}; its figures are reported as null`)
  } else etcd = { version: found.version }

  const reps: RepResult[] = []
  for (let rep = 1; rep <= o.reps; rep++) {
    // Sequential and each server fresh, so no series shares the CPUs with another server.
    let etcdResult: RepResult['etcd']
    if (!('missing' in found) && 'version' in etcd) {
      try {
        etcdResult = await etcdRep(found, o, rep)
      } catch (err) {
        if (interrupted) throw err
        etcd = { skipped: `etcd failed in repetition ${rep}: ${errorText(err).split('\n')[0]}` }
        progress(etcd.skipped)
      }
    }
    const floor = await floorRep(o, rep)
    const cp = await controlPlaneRep(o, rep, rep === 1)
    reps.push({ etcd: etcdResult, floor, cp })
  }
  // Once, not per repetition: each scenario is itself a count of pods or trials, and slow.
  const workload: WorkloadResult | undefined = o.workload
    ? await workloadRun(o, o.workload)
    : undefined
  const dataPath = o.workload ? await dataPathRun(o) : undefined
  const footprint = o.workload ? await footprintRun(o, o.workload.footprintPods) : undefined
  const cost = o.workload ? await costRun(o) : undefined

  const report = buildReport(
    {
      options: o,
      startedAt,
      finishedAt: new Date(),
      etcd,
      environment: { ...env, loadavg_at_end: loadavg1() },
    },
    reps,
    workload,
    dataPath,
    footprint,
    cost,
  )
  const paths = await writeReport(o.outDir, report)
  const table = renderMarkdown(report).split('\n## ')[0]!
  console.log(`\n${table.trim()}\n`)
  progress(`wrote ${[paths.json, paths.markdown, paths.svg].map(show).join(', ')}`)
}

function environment(): Record<string, unknown> {
  const cpu = cpus()
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpu.length,
    cpu_model: cpu[0]?.model.trim(),
    loadavg_at_start: loadavg1(),
  }
}

/** The 1-minute load average: other work on the machine shows up here, and in the spread of the figures. */
function loadavg1(): number {
  return Number(loadavg()[0]!.toFixed(2))
}

function show(path: string): string {
  const rel = relative(REPO_ROOT, path)
  return rel.startsWith('..') ? path : rel
}

async function stop(code: number, why?: string): Promise<never> {
  if (why) console.error(why)
  await stopAll()
  process.exit(code)
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) return
    interrupted = true
    progress(`${signal}: stopping everything the bench started`)
    void stop(130)
  })
}

main()
  .then(() => stop(0))
  .catch((err: unknown) => {
    if (err instanceof UsageError) return stop(2, err.message)
    return stop(1, `bench failed: ${errorText(err)}`)
  })
