import { isAbsolute, join, resolve } from 'node:path'
import { REPO_ROOT } from './repo'
import { parseArgs as parseFlags, type ParseArgsConfig } from 'node:util'

export type Mode = 'full' | 'quick' | 'smoke'

/** Sizes of the workload scenarios (simulated nodes, pods, trials) and their time bounds. */
export interface WorkloadSizes {
  nodes: number
  schedulePods: number
  deployReplicas: number
  replaceReplicas: number
  replaceTrials: number
  /** Replicas on the node that is lost, and the nodes left to take them. */
  lossPods: number
  lossSpareNodes: number
  /** Bound on each wait of a scenario (creates, binding, Running, availability). */
  waitMs: number
  replaceTimeoutMs: number
  readyTimeoutMs: number
  /**
   * Replicas of the Deployment left to converge before the idle window, and that window. The
   * controllers' resyncs (every 30 s) run in step, so a window of a whole number of resync
   * periods counts each controller's resync alarms exactly; a shorter one (smoke) may count none.
   */
  idlePods: number
  idleWindowMs: number
  /**
   * Run every scenario on the node-loss cluster (short grace period, 1 s leases) instead of two
   * control planes: saves a start-up where the sizes are too small for lease traffic to matter.
   */
  oneCluster: boolean
  /** Pods started at once on one real node agent per runtime (docker, process) for the pod-startup figures. */
  startPods: number
  /** Pods of 4 KB on the strict-limits control plane of the footprint figures (one sim node per 100). */
  footprintPods: number
}

export const WORKLOAD_SIZES: Record<Mode, WorkloadSizes> = {
  full: {
    nodes: 100,
    schedulePods: 1_000,
    deployReplicas: 1_000,
    replaceReplicas: 10,
    replaceTrials: 100,
    lossPods: 10,
    lossSpareNodes: 5,
    waitMs: 240_000,
    replaceTimeoutMs: 15_000,
    readyTimeoutMs: 120_000,
    idlePods: 100,
    idleWindowMs: 60_000,
    oneCluster: false,
    startPods: 20,
    footprintPods: 1_000,
  },
  quick: {
    nodes: 20,
    schedulePods: 200,
    deployReplicas: 200,
    replaceReplicas: 10,
    replaceTrials: 20,
    lossPods: 10,
    lossSpareNodes: 3,
    waitMs: 120_000,
    replaceTimeoutMs: 15_000,
    readyTimeoutMs: 60_000,
    idlePods: 100,
    idleWindowMs: 30_000,
    oneCluster: false,
    startPods: 20,
    footprintPods: 200,
  },
  smoke: {
    nodes: 3,
    schedulePods: 10,
    deployReplicas: 10,
    replaceReplicas: 3,
    replaceTrials: 3,
    lossPods: 4,
    lossSpareNodes: 2,
    waitMs: 30_000,
    replaceTimeoutMs: 10_000,
    readyTimeoutMs: 30_000,
    idlePods: 10,
    idleWindowMs: 5_000,
    oneCluster: true,
    startPods: 3,
    footprintPods: 20,
  },
}

export interface BenchOptions {
  mode: Mode
  /** Repetitions of every series; each figure is the median over them. */
  reps: number
  /** Objects created per repetition (and then read back, and listed). */
  objects: number
  /** Requests in flight in every throughput series. */
  concurrency: number
  /** Requests before each measured series, not counted. */
  warmup: number
  /** LIST calls per repetition; the repetition's figure is their median. */
  listCalls: number
  /** Concurrent WebSocket watchers, and the sequential writes they all observe. */
  watchers: number
  watchWrites: number
  /** Bound on every load loop, whatever its count. */
  timeLimitMs: number
  etcd: 'use' | 'skip'
  /** The scenarios with simulated nodes, run once after the repetitions. */
  workload: WorkloadSizes | null
  /** Install etcd with apt-get when it is missing and we are root. */
  installEtcd: boolean
  outDir: string
  /** `--scale N`: run only the scale scenario, at N pods (see scenarios/scale.ts) */
  scale?: number
  /** `--cost`: run only the cost scenario, at the mode's sizes (see scenarios/cost.ts) */
  cost?: true
}

export const USAGE = `Usage: npm run bench [-- options]

  (no option)     full run: 10,000 objects, 3 repetitions, 100 watchers; 100 sim nodes, 1,000 pods,
                  controller alarms over 60 s idle; controller footprint with 1,000 pods of 4 KB;
                  cost of 100 sim nodes, a 1,000-replica rollout and 6 min idle
  --quick         1,000 objects, 3 repetitions, 20 watchers; 20 sim nodes, 200 pods, 30 s idle;
                  footprint with 200 pods; cost of 100 nodes, 200 replicas and 60 s idle
  --smoke         with --quick: 50 objects, 1 repetition, 5 watchers; 3 sim nodes, 10 pods, 5 s idle;
                  footprint with 20 pods; cost of 3 nodes, 10 replicas and 10 s idle; etcd only if
                  installed
  --reps N        repetitions (default 3; smoke 1)
  --objects N     objects per repetition
  --watchers N    concurrent watchers
  --no-etcd       skip the etcd comparison (its figures are reported as null)
  --no-workload   skip the scenarios with simulated nodes (scheduling, deploy, replace, idle, node loss,
                  footprint, cost)
  --scale N       only the scale scenario, under strict limits: N pods of 4 KB over N/100 sim nodes,
                  a Deployment of N/10 replicas, a namespace of N/4 objects deleted; writes scale.json
  --cost          only the cost scenario, at the sizes of the mode: what the cluster is billed at
                  Cloudflare's list prices, idle and per pod started; writes cost.json
  --out DIR       where report.json, report.md and chart.svg go (default: bench/)
  --help`

export class UsageError extends Error {}

const OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  quick: { type: 'boolean' },
  smoke: { type: 'boolean' },
  'no-etcd': { type: 'boolean' },
  'no-workload': { type: 'boolean' },
  cost: { type: 'boolean' },
  reps: { type: 'string' },
  objects: { type: 'string' },
  watchers: { type: 'string' },
  out: { type: 'string' },
  scale: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const flags = new Set<string>()
  const values = new Map<string, string>()
  const { tokens } = parseFlags({
    args: argv,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  for (const t of tokens) {
    if (t.kind === 'option' && t.name === 'help') return 'help'
  }
  for (const t of tokens) {
    const arg = t.kind === 'option' ? t.rawName : t.kind === 'positional' ? t.value : '--'
    if (t.kind !== 'option' || !(t.name in OPTIONS) || !t.rawName.startsWith('--'))
      throw new UsageError(`unknown argument '${arg}'\n\n${USAGE}`)
    if (OPTIONS[t.name]!.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`${arg} takes no value`)
      flags.add(arg)
    } else {
      if (t.value === undefined) throw new UsageError(`${arg} needs a value`)
      values.set(arg, t.value)
    }
  }
  const mode: Mode = flags.has('--smoke') ? 'smoke' : flags.has('--quick') ? 'quick' : 'full'
  const base: Omit<BenchOptions, 'outDir' | 'etcd' | 'workload'> =
    mode === 'full'
      ? {
          mode,
          reps: 3,
          objects: 10_000,
          concurrency: 16,
          warmup: 200,
          listCalls: 5,
          watchers: 100,
          watchWrites: 200,
          timeLimitMs: 120_000,
          installEtcd: true,
        }
      : mode === 'quick'
        ? {
            mode,
            reps: 3,
            objects: 1_000,
            concurrency: 16,
            warmup: 100,
            listCalls: 5,
            watchers: 20,
            watchWrites: 200,
            timeLimitMs: 60_000,
            installEtcd: true,
          }
        : {
            mode,
            reps: 1,
            objects: 50,
            concurrency: 16,
            warmup: 16,
            listCalls: 3,
            watchers: 5,
            watchWrites: 20,
            timeLimitMs: 20_000,
            installEtcd: false,
          }
  const int = (flag: string, fallback: number) => {
    const v = values.get(flag)
    if (v === undefined) return fallback
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new UsageError(`${flag} must be a positive integer, got '${v}'`)
    return Number(v)
  }
  const out = values.get('--out')
  return {
    ...base,
    reps: int('--reps', base.reps),
    objects: int('--objects', base.objects),
    watchers: int('--watchers', base.watchers),
    etcd: flags.has('--no-etcd') ? 'skip' : 'use',
    workload: flags.has('--no-workload') ? null : WORKLOAD_SIZES[mode],
    outDir: out === undefined ? join(REPO_ROOT, 'bench') : isAbsolute(out) ? out : resolve(out),
    ...(values.has('--scale') ? { scale: int('--scale', 0) } : {}),
    ...(flags.has('--cost') ? { cost: true as const } : {}),
  }
}
