import { defaultResyncMs } from '../../settings/settings'

export interface RunnerOptions {
  /** every key is reconciled at least this often, whatever the notifications (level-triggered safety net) */
  resyncMs: number
  /** one pass stops taking new keys after this long and asks to run again at once */
  passBudgetMs: number
  /**
   * ...or once its reconciles returned this many actions: each is at least one store call, and
   * one invocation may make only so many subrequests (1,000 on the platform's free plan), however
   * little time they take. Keys not taken run in the next pass, which starts at once.
   */
  maxActionsPerPass: number
  /**
   * ...or once it has made this many store calls: its reads (change batches, relist pages) and its
   * writes (an action each, bindings and events many per call). Each is a subrequest of the pass's
   * invocation, so a pass ends below twice this unless its last key alone makes more.
   */
  maxCallsPerPass: number
  /** changes read from a store per request */
  changesPerRead: number
}

export const defaultRunnerOptions: RunnerOptions = {
  resyncMs: defaultResyncMs,
  passBudgetMs: 20_000,
  maxActionsPerPass: 400,
  maxCallsPerPass: 250,
  changesPerRead: 2000,
}

/** What a pass did, for tests and diagnostics. */
export interface PassReport {
  reconciled: number
  failed: number
  actions: number
  /** store calls made: reads and writes (see RunnerOptions.maxCallsPerPass) */
  calls: number
  /** when the next pass is due (epoch ms), or undefined when nothing is scheduled */
  nextAt: number | undefined
  /**
   * time spent computing (parsing changes, updating caches, mapping keys, reconciling), never
   * waiting on a store: the pass's CPU, as measured locally where the clock runs during CPU work
   */
  cpuMs?: number
}
