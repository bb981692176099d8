/**
 * Backoff timing: the CrashLoopBackOff delays between container restarts, and the exponential
 * retry delays of the agent's API connections. Pure apart from the injected random source.
 */

export interface CrashBackoffConfig {
  /** first delay; kubelet's is 10 s */
  baseMs: number
  /** cap; kubelet's is 300 s */
  maxMs: number
  /** a container that ran at least this long starts its next crash loop from scratch (10 min) */
  resetAfterMs: number
}

export const DEFAULT_CRASH_BACKOFF: CrashBackoffConfig = {
  baseMs: 10_000,
  maxMs: 300_000,
  resetAfterMs: 600_000,
}

/** The crash backoff with `EDGEPLANE_AGENT_BACKOFF_BASE_MS` applied (tests shorten it). */
export function crashBackoffFromEnv(env: NodeJS.ProcessEnv = process.env): CrashBackoffConfig {
  const base = Number(env.EDGEPLANE_AGENT_BACKOFF_BASE_MS)
  if (!env.EDGEPLANE_AGENT_BACKOFF_BASE_MS || !Number.isFinite(base) || base < 0)
    return DEFAULT_CRASH_BACKOFF
  // The cap scales with the base so a shortened loop keeps kubelet's shape (a cap of 30 times the base).
  return {
    ...DEFAULT_CRASH_BACKOFF,
    baseMs: base,
    maxMs: Math.max(base, base * (DEFAULT_CRASH_BACKOFF.maxMs / DEFAULT_CRASH_BACKOFF.baseMs)),
  }
}

/** Per-container crash-loop memory: how many restarts in a row came after short runs. */
export interface CrashLoopState {
  /** restarts in the current streak */
  streak: number
}

/**
 * The wait before restarting a container that just exited, and the streak after it. As kubelet:
 * the first restart is immediate, then 10 s, 20 s, 40 s … up to 300 s; a run of at least
 * `resetAfterMs` forgets the streak.
 */
export function nextCrashDelay(
  state: CrashLoopState,
  ranForMs: number,
  cfg: CrashBackoffConfig,
): { delayMs: number; state: CrashLoopState } {
  const streak = ranForMs >= cfg.resetAfterMs ? 0 : state.streak
  const delayMs = streak === 0 ? 0 : Math.min(cfg.maxMs, cfg.baseMs * 2 ** (streak - 1))
  return { delayMs, state: { streak: streak + 1 } }
}

export interface RetryBackoffConfig {
  initialMs: number
  maxMs: number
  factor: number
  /** each delay is drawn from [d·(1-jitter), d·(1+jitter)] */
  jitter: number
}

/** The watch reconnect schedule: 800 ms doubling to 30 s with ±20 % jitter. */
export const WATCH_RECONNECT: RetryBackoffConfig = {
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 0.2,
}
/** Failed lease renewals retry fast at first, as kubelet's 200 ms → 7 s. */
export const LEASE_RETRY: RetryBackoffConfig = {
  initialMs: 200,
  maxMs: 7_000,
  factor: 2,
  jitter: 0.1,
}

/** Exponential retry delays with jitter; `reset()` after a success. */
export class RetryBackoff {
  private attempt = 0

  constructor(
    private readonly cfg: RetryBackoffConfig,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt. */
  next(): number {
    const raw = Math.min(this.cfg.maxMs, this.cfg.initialMs * this.cfg.factor ** this.attempt)
    this.attempt++
    const spread = raw * this.cfg.jitter * (2 * this.random() - 1)
    return Math.max(0, Math.round(Math.min(this.cfg.maxMs, raw + spread)))
  }

  reset(): void {
    this.attempt = 0
  }

  get attempts(): number {
    return this.attempt
  }
}
