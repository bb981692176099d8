/** One figure of the report: a key's value over the repetitions, its goal and verdict, and the details beside it. */
import type { SeriesResult } from '../scenarios/series'
import { round, spread, type Percentiles } from '../stats'
import { GOALS, meets, type Goal, type Key } from './keys'

export type Verdict = 'meets' | 'misses' | 'reference' | 'reported' | 'pending' | 'not measured'

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

/** The figure of `key` from the value of each repetition, judged against its goal. */
export function figure(
  key: Key,
  unit: string,
  values: number[],
  aggregate: Figure['aggregate'],
  details?: Record<string, unknown>,
): Figure {
  const s = spread(values)
  const value = s === undefined ? null : aggregate === 'max' ? s.max : s.median
  const goal = GOALS[key]
  let verdict: Verdict =
    key.startsWith('floor_') || key.startsWith('etcd_') ? 'reference' : 'reported'
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

/** A figure that was not measured, and why. */
export function skipped(unit: string, reason: string, goal?: Goal): Figure {
  return {
    value: null,
    min: null,
    max: null,
    reps: [],
    aggregate: 'median',
    unit,
    goal: goal ? `${goal.op} ${goal.target}` : null,
    verdict: 'not measured',
    skipped: reason,
  }
}

export function seriesDetails(series: SeriesResult[]): Record<string, unknown> {
  const cpu = series.flatMap((s) => (s.cpuMsPer1k ? [s.cpuMsPer1k] : []))
  return {
    requests_per_rep: series.map((s) => s.ok),
    errors: sum(series.map((s) => s.errors)),
    first_error: series.find((s) => s.firstError)?.firstError,
    stopped_by_time_bound: series.filter((s) => s.stoppedBy === 'time').length,
    ...latencyDetails(series.map((s) => s.latency)),
    cpu_ms_per_1k_requests: cpu.length
      ? { server: med(cpu.map((c) => c.server)), client: med(cpu.map((c) => c.client)) }
      : undefined,
  }
}

export function latencyDetails(ls: Percentiles[]): Record<string, number> {
  return {
    p50_ms: med(ls.map((l) => l.p50)),
    p90_ms: med(ls.map((l) => l.p90)),
    p99_ms: med(ls.map((l) => l.p99)),
    max_ms: med(ls.map((l) => l.max)),
  }
}

export function med(values: number[]): number {
  return round(spread(values)?.median ?? Number.NaN)
}

export function sum(values: number[]): number {
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
