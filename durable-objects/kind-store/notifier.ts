import type { Env } from '../../src/env'
import { watchersOf } from '../../src/controllers/registry'
import { hostFor } from '../../src/controllers/cron'
import type { Change } from './log'

/**
 * Tells the controllers watching this store that it changed. At most one notification per
 * controller is in flight; changes meanwhile are folded into one more, so a burst of writes costs a
 * handful of calls. Notifications only make a pass come sooner: a lost one is healed by the
 * controller's periodic resync.
 */
export class Notifier {
  private readonly inFlight = new Set<string>()
  private readonly again = new Set<string>()

  constructor(private readonly env: Env) {}

  notify(storeName: string, change: Pick<Change, 'type' | 'object' | 'previous'>): void {
    if (this.env.CONTROLLER_NOTIFICATIONS === 'false') return
    let names: Iterable<string>
    try {
      names = watchersOf(storeName, change.type, change.object, change.previous)
    } catch (e) {
      // A notification only hastens a pass; the controllers' resync still sees the change.
      console.error('finding the controllers to notify failed', e)
      return
    }
    for (const name of names) this.poke(name)
  }

  private poke(name: string): void {
    if (this.inFlight.has(name)) {
      this.again.add(name)
      return
    }
    this.inFlight.add(name)
    hostFor(this.env, name)
      .poke(name)
      .catch(() => {})
      .finally(() => {
        this.inFlight.delete(name)
        if (this.again.delete(name)) this.poke(name)
      })
  }
}
