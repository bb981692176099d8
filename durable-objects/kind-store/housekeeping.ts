import { bookmarkIntervalMs, compactionBatchRows, compactionIntervalMs } from '../../src/config'
import type { Log } from './log'
import type { WatchHub } from './watch-hub'

/** What housekeeping needs of the store's settings. */
export interface HousekeepingSettings {
  compactRetainEvents: number
  compactRetainMs: number
  eventTtlMs: number
}

/**
 * The store's alarm: Event expiry, compaction and bookmarks. A write (or a new watcher) books it
 * about a minute on, so watchers that asked for bookmarks get one about once a minute while
 * writes happen; the alarm books itself again only for work no write will bring (history that
 * only its age keeps from compaction, the next Event to expire). A store nobody writes sets no
 * alarm: a bookmark would carry the resourceVersion already sent, and compaction has nothing new.
 */
export class Housekeeping {
  /** when the booked alarm runs, as far as this instance knows (unknown after a restart) */
  private alarmAt: number | undefined

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly log: Log,
    private readonly hub: WatchHub,
    private readonly settings: () => HousekeepingSettings,
    /** the store's kind expires (Events) */
    private readonly expiring: () => boolean,
    /** removes one batch of expired objects; true when more may be waiting */
    private readonly expire: (nowMs: number) => boolean,
    /** the alarm time the store's deadlines want (see StoreDeadlines), if any: never booked later */
    private readonly deadline: () => number | undefined = () => undefined,
  ) {}

  /**
   * After a write or a new watcher: a bookmark within about a minute when a watcher asked for
   * them, compaction when the log holds more than it retains, the next expiry; none of these, no
   * alarm (the next write asks again).
   */
  soon(nowMs = Date.now()): void {
    const intervals: number[] = []
    if (this.hub.wantsBookmarks()) intervals.push(bookmarkIntervalMs)
    if (this.compactionDue(nowMs) !== undefined) intervals.push(compactionIntervalMs)
    if (this.expiring()) intervals.push(Math.max(1000, this.settings().eventTtlMs))
    const at = Math.min(nowMs + Math.min(...intervals), this.deadline() ?? Infinity)
    if (at !== Infinity) this.book(at)
  }

  /** The alarm handler. */
  async run(nowMs = Date.now()): Promise<void> {
    this.alarmAt = undefined
    if (this.expire(nowMs)) {
      // A full batch: the rest follows at once, in its own turn, so requests interleave. A
      // millisecond on: the runtime takes an alarm set again to the time of the one running (the
      // clock stands still while this handler only reads and writes its own storage) as already run.
      this.alarmAt = nowMs + 1
      await this.ctx.storage.setAlarm(this.alarmAt)
    }
    this.compact(nowMs)
    this.bookmark()
    const due = this.nextDue(nowMs)
    if (due !== undefined) this.book(due)
  }

  /** Compacts the log as far as the retention settings allow, a bounded step per transaction. */
  private compact(nowMs: number): void {
    const { compactRetainEvents, compactRetainMs } = this.settings()
    const target = this.log.compactionTarget(compactRetainEvents, nowMs, compactRetainMs)
    while (!this.ctx.storage.transactionSync(() => this.log.compact(target, compactionBatchRows)));
  }

  /** The current resourceVersion to every watcher that asked for bookmarks. */
  private bookmark(): void {
    const watchers = this.hub.sockets()
    if (!watchers.length) return
    const spec = this.hub.watcher(watchers[0]!)?.spec
    if (spec) this.hub.bookmark(spec.kind, spec.apiVersion, this.log.currentRv)
  }

  /** When the store next has work that no write will bring, if any (a deadline among it). */
  private nextDue(nowMs: number): number | undefined {
    const due = [this.compactionDue(nowMs), this.expiryDue(nowMs), this.deadline()].filter(
      (t): t is number => t !== undefined,
    )
    return due.length ? Math.min(...due) : undefined
  }

  /** History beyond the retained changes that only its age kept from compaction. */
  private compactionDue(nowMs: number): number | undefined {
    const { compactRetainEvents } = this.settings()
    return this.log.currentRv - this.log.compactedRv > compactRetainEvents
      ? nowMs + compactionIntervalMs
      : undefined
  }

  /** The next object to expire (Events): its last write plus the TTL, at least a second on. */
  private expiryDue(nowMs: number): number | undefined {
    if (!this.expiring()) return undefined
    const oldest = this.log.oldestWriteMs()
    if (oldest === undefined) return undefined
    return Math.max(nowMs + 1000, oldest + this.settings().eventTtlMs)
  }

  /** Books the alarm at `at`, unless one is booked no later. */
  private book(at: number): void {
    if (this.alarmAt !== undefined && this.alarmAt <= at) return
    this.alarmAt = at
    void this.ctx.storage.getAlarm().then((booked) => {
      if (booked === null || booked > at) return this.ctx.storage.setAlarm(at)
    })
  }
}
