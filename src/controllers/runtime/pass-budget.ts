import type { RunnerOptions } from './runner-options'

/**
 * What one pass has spent of what one invocation may: its time, the actions its reconciles
 * returned, its store calls (each a subrequest) and its CPU. The pass stops taking keys once any of
 * them reaches its limit; the keys left run in the next pass, which starts at once.
 */
export class PassBudget {
  /** store calls so far: reads and writes (see RunnerOptions.maxCallsPerPass) */
  calls = 0
  /** actions the reconciles returned so far */
  actions = 0
  /** time spent computing so far (see PassReport.cpuMs) */
  cpuMs = 0

  constructor(
    private readonly opts: RunnerOptions,
    private readonly start: number,
  ) {}

  /** Counts one store call. */
  readonly countCall = (): void => {
    this.calls++
  }

  /** Runs synchronous work, adding its time to the pass's CPU. */
  computing<T>(work: () => T): T {
    const started = performance.now()
    try {
      return work()
    } finally {
      this.cpuMs += performance.now() - started
    }
  }

  /** Whether the pass has spent its time, actions or store calls by `now`. */
  spent(now: number): boolean {
    return (
      now - this.start > this.opts.passBudgetMs ||
      this.actions >= this.opts.maxActionsPerPass ||
      this.calls >= this.opts.maxCallsPerPass
    )
  }
}
