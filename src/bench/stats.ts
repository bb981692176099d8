/** Latency percentiles of one series, in milliseconds. */
export interface Percentiles {
  count: number
  p50: number
  p90: number
  p99: number
  max: number
  mean: number
}

/** A figure over repetitions: the median, and the spread it came from. */
export interface Spread {
  median: number
  min: number
  max: number
}

/**
 * Nearest-rank percentile of an ascending array: the smallest value with at least p % of the
 * samples at or below it, so p99 of 100 samples is the 99th and never an interpolation.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}

export function percentiles(samples: ArrayLike<number>): Percentiles {
  const sorted = Float64Array.from(samples).sort()
  let sum = 0
  for (const v of sorted) sum += v
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  }
}

/** Median (the mean of the middle two for an even count), min and max; undefined for no values. */
export function spread(values: number[]): Spread | undefined {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (finite.length === 0) return undefined
  const mid = finite.length >> 1
  const median = finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2
  return { median, min: finite[0]!, max: finite[finite.length - 1]! }
}

export function median(values: number[]): number {
  return spread(values)?.median ?? Number.NaN
}

/** Rounds for display and JSON: 3 significant digits below 100, whole numbers above. */
export function round(v: number): number {
  if (!Number.isFinite(v)) return v
  if (Math.abs(v) >= 100) return Math.round(v)
  return Number(v.toPrecision(3))
}
