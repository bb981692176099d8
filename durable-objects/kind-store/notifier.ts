import type { KubeObject } from '../../src/apimachinery/types'
import type { Change, ChangeType } from './log'

/**
 * Who hears of a store's changes. The store never imports the controllers: the Worker entry (the
 * composition root, src/index.ts) builds this route from the controller registry.
 */
export interface ChangeRoute {
  /** The controllers to tell of a change to the store named `group/plural` (e.g. `core/pods`). */
  watchersOf(
    storeName: string,
    type: ChangeType,
    object: KubeObject,
    previous?: KubeObject,
  ): Iterable<string>
  /** Asks the controller `name` for a pass soon. */
  poke(name: string): Promise<unknown>
  /** The controllers to tell when objects of the store `storeName` pass their deadline unchanged. */
  deadlineWatchersOf(storeName: string): Iterable<string>
  /** Asks the controller `name` for a pass soon over what `objects` of the store `storeName` concern. */
  pokeDue(name: string, storeName: string, objects: KubeObject[]): Promise<unknown>
}

/** A notification that failed is sent again after this long, doubling while it keeps failing, up to `maxRetryMs`. */
const retryMs = 500
const maxRetryMs = 30_000
/**
 * A notification not answered within this long is taken as failed and sent again: one that never
 * settles would hold back every later one. Well within the 10 s after which an idle store may
 * hibernate, and its timers with it.
 */
export const notifyTimeoutMs = 3_000
/** How long after a retry's time the store's alarm is booked, in case the store hibernated before its timer */
const retryAlarmSlackMs = 1_000

/** What the notifier waits with: timers in the store's memory, and its alarm, which outlives a hibernation. */
export interface NotifierClock {
  /** runs `then` after `ms`; returns what cancels it */
  wait?: (ms: number, then: () => void) => () => void
  /** books the store's alarm no later than `at`: a store woken by it sends again what its outbox holds (`resume`) */
  alarmBy?: (at: number) => void
}

/** The controllers with changes not yet told, kept where a restart of the store finds them (see NotifyOutbox). */
export interface Outbox {
  pending(): string[]
  add(controller: string): void
  remove(controller: string): void
}

/**
 * Tells the controllers watching this store that it changed, at least once: each controller to
 * tell is in the outbox until a notification sent after the change is delivered, and `resume`
 * sends again what a restart interrupted. At most one notification per controller is in flight;
 * changes meanwhile are folded into one more, so a burst of writes costs a handful of calls. One
 * that fails or goes unanswered (the host could not be reached) is sent again after a back-off,
 * the changes meanwhile folded into it; the store's alarm is booked for it too, so a store that
 * hibernates before the retry (its timers go with it) is woken and sends what its outbox holds.
 */
export class Notifier {
  private readonly inFlight = new Set<string>()
  private readonly again = new Set<string>()

  private readonly wait: (ms: number, then: () => void) => () => void
  private readonly alarmBy: (at: number) => void

  /** `enabled` false (CONTROLLER_NOTIFICATIONS=false) leaves the controllers to their periodic passes. */
  constructor(
    private readonly route: ChangeRoute,
    private readonly enabled: boolean,
    private readonly outbox: Outbox,
    clock: NotifierClock = {},
  ) {
    this.wait =
      clock.wait ??
      ((ms, then) => {
        const timer = setTimeout(then, ms)
        return () => clearTimeout(timer)
      })
    this.alarmBy = clock.alarmBy ?? (() => undefined)
  }

  /** Sends what the outbox holds: the notifications a restart of the store interrupted. */
  resume(): void {
    if (!this.enabled) return
    for (const name of this.outbox.pending()) if (!this.inFlight.has(name)) this.send(name, 0)
  }

  notify(storeName: string, change: Pick<Change, 'type' | 'object' | 'previous'>): void {
    if (!this.enabled) return
    let names: Iterable<string>
    try {
      names = this.route.watchersOf(storeName, change.type, change.object, change.previous)
    } catch (e) {
      // A notification only hastens a pass; the controllers' resync still sees the change.
      console.error('finding the controllers to notify failed', e)
      return
    }
    for (const name of names) {
      this.outbox.add(name)
      if (this.inFlight.has(name)) this.again.add(name)
      else this.send(name, 0)
    }
  }

  /**
   * Tells the controllers watching the deadlines of this store's objects that `objects` passed
   * theirs unchanged. True once every one of them heard it (or notifications are off); false when
   * one could not be reached: the store keeps the deadlines and announces them again later.
   */
  async notifyDue(storeName: string, objects: KubeObject[]): Promise<boolean> {
    if (!this.enabled || !objects.length) return true
    try {
      const names = [...this.route.deadlineWatchersOf(storeName)]
      await Promise.all(names.map((name) => this.route.pokeDue(name, storeName, objects)))
      return true
    } catch (e) {
      console.error(`announcing the deadlines of ${objects.length} objects failed`, e)
      return false
    }
  }

  private send(name: string, failures: number): void {
    this.inFlight.add(name)
    this.again.delete(name)
    let settled = false
    const delivered = () => {
      if (settled) return
      settled = true
      cancelTimeout()
      this.inFlight.delete(name)
      if (this.again.has(name)) this.send(name, 0)
      else this.outbox.remove(name)
    }
    const failed = (e: unknown) => {
      if (settled) return
      settled = true
      cancelTimeout()
      console.error(`notifying controller ${name} failed`, e)
      // Still in flight: the changes until the retry ride on it. Should the store hibernate before
      // the timer, its alarm wakes it and the outbox is sent again.
      const backoff = Math.min(maxRetryMs, retryMs * 2 ** failures)
      this.alarmBy(Date.now() + backoff + retryAlarmSlackMs)
      this.wait(backoff, () => this.send(name, failures + 1))
    }
    const cancelTimeout = this.wait(notifyTimeoutMs, () =>
      failed(new Error(`no answer within ${notifyTimeoutMs} ms`)),
    )
    Promise.resolve()
      .then(() => this.route.poke(name))
      .then(delivered, failed)
  }
}
