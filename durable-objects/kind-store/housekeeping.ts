import { bookmarkIntervalMs, compactionBatchRows, compactionIntervalMs } from '../../src/config'
import { excessWrittenMs } from './compaction'
import type { Log } from './log'
import type { WatchHub } from './watch-hub'

/**
 * Compaction is booked this long after the history beyond the retained changes ages out, so the
 * writes that follow within it (the rest of a burst) leave the alarm where it is; a later one
 * moves it, a row written but no wake.
 */
export const compactionSlackMs = 10_000

/** What housekeeping needs of the store's settings. */
export interface HousekeepingSettings {
  compactRetainEvents: number
  compactRetainMs: number
  eventTtlMs: number
}

/** When compaction runs, and the latest a write may move it to. */
interface CompactionDue {
  at: number
  by: number
}

/**
 * The store's alarm: Event expiry, compaction and the store's deadlines (`deadlines.ts`); it runs
 * at the earliest of what each wants. Bookmarks need none: a write sends one to the watchers that
 * asked for them when the last was sent at least `bookmarkIntervalMs` before (the first write after
 * the store starts sends one), and every alarm sends one; so watchers get one about once a minute
 * while writes happen, and before compaction passes the resourceVersion they hold. A watcher whose
 * store nobody writes gets none: a bookmark would carry the resourceVersion already sent. (The API
 * lets the server choose when to send bookmarks, or send none.) Compaction is booked for when all
 * the history beyond the retained changes can go at once (`compactionDue`). The alarm books itself
 * again only for work no write will bring (history that only its age keeps from compaction, the
 * next Event to expire, a deadline). A store nobody writes sets no alarm. The alarm moves later
 * only when what it was booked for did (the earliest deadline, compaction after more writes), and
 * only once this instance knows what is booked is its own: after a restart, until its alarm ran or
 * it found none booked.
 */
export class Housekeeping {
  /** when the booked alarm runs, as far as this instance knows (unknown after a restart) */
  private alarmAt: number | undefined
  /** what is booked was booked by this instance: it ran the alarm, or found none booked */
  private known = false
  /** when this instance last sent watchers a bookmark */
  private bookmarkedAt: number | undefined
  /** the next Event expiry, or other work (`wake`): only ever brought forward until the alarm runs */
  private dueAt: number | undefined
  /** compaction, while the log holds more than it retains */
  private compaction: CompactionDue | undefined
  /** the alarm's bookings, one after the other */
  private booking: Promise<void> = Promise.resolve()

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly log: Log,
    private readonly hub: WatchHub,
    private readonly settings: () => HousekeepingSettings,
    /** the store's kind expires (Events) */
    private readonly expiring: () => boolean,
    /** removes one batch of expired objects; true when more may be waiting */
    private readonly expire: (nowMs: number) => boolean,
    /** the alarm time the store's deadlines want (see StoreDeadlines), if any */
    private readonly deadline: () => number | undefined = () => undefined,
  ) {
    // Read before this instance books anything: with none booked, all that is booked is its own.
    void ctx.storage.getAlarm().then((booked) => {
      if (booked === null) this.known = true
    })
  }

  /**
   * After a write (the resourceVersion it `wrote`) or a new watcher: a bookmark at that
   * resourceVersion after a write, when a watcher asked for them and the last is a minute old; then
   * the alarm for compaction when the log holds more than it retains, the next expiry, the earliest
   * deadline; none of these, no alarm (the next write asks again).
   */
  soon(wrote: number | undefined, nowMs = Date.now()): void {
    if (
      wrote !== undefined &&
      (this.bookmarkedAt === undefined || nowMs - this.bookmarkedAt >= bookmarkIntervalMs) &&
      this.hub.wantsBookmarks()
    )
      this.bookmark(nowMs, wrote)
    if (this.expiring()) this.due(nowMs + Math.max(1000, this.settings().eventTtlMs))
    this.compaction = this.compactionDue(nowMs)
    this.rebook()
  }

  /** Brings the alarm forward to `at` for work of the store's own (a notification to send again). */
  wake(at: number): void {
    this.due(at)
    this.rebook()
  }

  /** The alarm handler. */
  async run(nowMs = Date.now()): Promise<void> {
    this.known = true
    this.alarmAt = this.dueAt = this.compaction = undefined
    // A full batch: the rest follows at once, in its own turn, so requests interleave. A
    // millisecond on: the runtime takes an alarm set again to the time of the one running (the
    // clock stands still while this handler only reads and writes its own storage) as already run.
    if (this.expire(nowMs)) this.dueAt = nowMs + 1
    this.compact(nowMs)
    this.bookmark(nowMs, this.log.currentRv)
    this.due(this.expiryDue(nowMs))
    this.compaction = this.compactionDue(nowMs)
    this.rebook()
    await this.booking
  }

  /** Compacts the log as far as the retention settings allow, a bounded step per transaction. */
  private compact(nowMs: number): void {
    const { compactRetainEvents, compactRetainMs } = this.settings()
    const target = this.log.compactionTarget(compactRetainEvents, nowMs, compactRetainMs)
    while (!this.ctx.storage.transactionSync(() => this.log.compact(target, compactionBatchRows)));
  }

  /**
   * `rv` to every watcher that asked for bookmarks, once every change up to it was sent: after a
   * write, its own resourceVersion (the changes of one transaction are told one at a time).
   */
  private bookmark(nowMs: number, rv: number): void {
    const watchers = this.hub.sockets()
    if (!watchers.length) return
    this.bookmarkedAt = nowMs
    const spec = this.hub.watcher(watchers[0]!)?.spec
    if (spec) this.hub.bookmark(spec.kind, spec.apiVersion, rv)
  }

  /** Brings the next expiry forward to `at`. */
  private due(at: number | undefined): void {
    if (at !== undefined && (this.dueAt === undefined || at < this.dueAt)) this.dueAt = at
  }

  /**
   * When compaction can remove all the history beyond the retained changes: once the newest of it
   * is `compactRetainMs` old, and `compactionSlackMs` more. First booked no sooner than
   * `compactRetainMs` on (a minute at least), so a steady trickle of writes wakes the store for
   * compaction once per `compactRetainMs`, not every minute. A later write whose history beyond
   * the retained changes ages out only after that moves it (`compactionSlackMs` past its own
   * time), but no later than `compactRetainMs` and a minute after it was first booked. So a burst
   * of writes then quiet wakes the store once; while writes go on, compaction runs at least that
   * often, and the log holds at most about twice `compactRetainMs` and a minute of history beyond
   * the retained changes.
   */
  private compactionDue(nowMs: number): CompactionDue | undefined {
    const booked = this.compaction
    if (booked && booked.at >= booked.by) return booked
    const { compactRetainEvents, compactRetainMs } = this.settings()
    const { currentRv, compactedRv } = this.log
    const sql = this.ctx.storage.sql
    const written = excessWrittenMs(sql, currentRv, compactedRv, compactRetainEvents)
    if (written === undefined) return undefined
    const agedOut = written + compactRetainMs
    if (booked)
      return agedOut > booked.at
        ? { at: Math.min(agedOut + compactionSlackMs, booked.by), by: booked.by }
        : booked
    return {
      at: Math.max(
        nowMs + Math.max(compactionIntervalMs, compactRetainMs),
        agedOut + compactionSlackMs,
      ),
      by: nowMs + compactRetainMs + compactionIntervalMs,
    }
  }

  /** The next object to expire (Events): its last write plus the TTL, at least a second on. */
  private expiryDue(nowMs: number): number | undefined {
    if (!this.expiring()) return undefined
    const oldest = this.log.oldestWriteMs()
    if (oldest === undefined) return undefined
    return Math.max(nowMs + 1000, oldest + this.settings().eventTtlMs)
  }

  /**
   * Books the alarm at the earliest of what housekeeping and the deadlines want: earlier at once;
   * later (one `setAlarm`, no wake) only when what is booked is this instance's own.
   */
  private rebook(): void {
    const at = Math.min(
      this.dueAt ?? Infinity,
      this.compaction?.at ?? Infinity,
      this.deadline() ?? Infinity,
    )
    if (at === Infinity) return
    if (this.alarmAt !== undefined && (at === this.alarmAt || (at > this.alarmAt && !this.known)))
      return
    const earlier = this.alarmAt === undefined || at < this.alarmAt
    this.alarmAt = at
    // In order, so a later booking never lands before an earlier one it follows.
    this.booking = this.booking
      .then(async () => {
        const booked = earlier && !this.known ? await this.ctx.storage.getAlarm() : null
        if (booked === null || booked > at) await this.ctx.storage.setAlarm(at)
      })
      .catch((e) => console.error('booking the alarm failed', e))
  }
}
