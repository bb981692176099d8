/**
 * When each controller of a host is next due. A host runs one controller's pass per alarm (each
 * invocation has its own subrequest and CPU budget), the one due earliest, so a controller with
 * work left over never starves the others: its next pass is due now, after theirs. A controller
 * the host has not run yet (a new or evicted instance) is due at once.
 */
export class HostSchedule {
  private readonly dueAt = new Map<string, number>()
  /** when each controller was last notified: a notification during its pass must survive the pass's re-arm */
  private readonly pokedAt = new Map<string, number>()
  /** when each controller's last pass ended: notifications bring the next one no sooner than the gap after it */
  private readonly endedAt = new Map<string, number>()

  constructor(private readonly passGapMs: number) {}

  dueOf(name: string): number {
    return this.dueAt.get(name) ?? 0
  }

  /** A store committed a change the controller watches: its next pass is due soon. Returns when. */
  poked(name: string, now: number): number {
    this.pokedAt.set(name, now)
    const due = Math.max(now, (this.endedAt.get(name) ?? 0) + this.passGapMs)
    this.dueAt.set(name, Math.min(this.dueOf(name), due))
    return this.dueOf(name)
  }

  /** The controller due earliest of `names` (the first of them on a tie). */
  next(names: string[]): { name: string; at: number } {
    let best = names[0]!
    for (const name of names) if (this.dueOf(name) < this.dueOf(best)) best = name
    return { name: best, at: this.dueOf(best) }
  }

  /** A pass that began at `startedAt` ended at `endedAt` and asked to run again at `nextAt` (undefined: only when notified). */
  passed(name: string, startedAt: number, endedAt: number, nextAt: number | undefined): void {
    this.endedAt.set(name, endedAt)
    let due = nextAt ?? Infinity
    if ((this.pokedAt.get(name) ?? -Infinity) >= startedAt)
      due = Math.min(due, endedAt + this.passGapMs)
    this.dueAt.set(name, due)
  }
}

/**
 * When the handler of an alarm set for `armed` that begins at `now` counts as fired: when it began,
 * no earlier than the time it was set for. An alarm runs late by the time its object takes to wake,
 * and the runtime takes one set again, while the handler runs or as it ends, to any time up to the
 * moment the handler began as already run.
 */
export function firedAt(armed: number | undefined, now: number): number {
  return Math.max(armed ?? now, now)
}

/**
 * When to set a host's alarm, whether its handler re-arms it or a notification brings it forward:
 * when the controller due earliest is due (`at`), but never in the past, and at least a millisecond
 * after `fired` (`firedAt` of the last alarm whose handler the host ran). The runtime takes an alarm
 * set again to that time or before, while its handler runs or as it ends, as already run: it stays
 * stored and never fires, a notification sees an alarm already due and sets none, and the host is
 * silent until something finds the alarm lost (see `ControllerHost.lost`). Two controllers due at the same moment
 * (one change wakes both), or a notification landing in the millisecond the alarm fired, would
 * otherwise set it there.
 */
export function nextAlarmAt(at: number, now: number, fired: number | undefined): number {
  return Math.max(at, now, fired === undefined ? -Infinity : fired + 1)
}
