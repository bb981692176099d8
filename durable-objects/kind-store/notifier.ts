import type { KubeObject } from '../../src/apimachinery/types'
import type { Change, ChangeType } from './log'

/**
 * Who hears of a store's changes. The store never imports the controllers: the Worker entry (the
 * composition root, src/index.ts) builds this route from the controller registry.
 */
export interface ChangeRoute {
  /** The controllers to tell of a change to the store named `group/plural` (e.g. `core/pods`). */
  watchersOf(storeName: string, type: ChangeType, object: KubeObject, previous?: KubeObject): Iterable<string>
  /** Asks the controller `name` for a pass soon. */
  poke(name: string): Promise<unknown>
}

/**
 * Tells the controllers watching this store that it changed. At most one notification per
 * controller is in flight; changes meanwhile are folded into one more, so a burst of writes costs a
 * handful of calls. Notifications only make a pass come sooner: a lost one is healed by the
 * controller's periodic resync.
 */
export class Notifier {
  private readonly inFlight = new Set<string>()
  private readonly again = new Set<string>()

  /** `enabled` false (CONTROLLER_NOTIFICATIONS=false) leaves the controllers to their periodic passes. */
  constructor(
    private readonly route: ChangeRoute,
    private readonly enabled: boolean,
  ) {}

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
    for (const name of names) this.poke(name)
  }

  private poke(name: string): void {
    if (this.inFlight.has(name)) {
      this.again.add(name)
      return
    }
    this.inFlight.add(name)
    this.route
      .poke(name)
      .catch(() => {})
      .finally(() => {
        this.inFlight.delete(name)
        if (this.again.delete(name)) this.poke(name)
      })
  }
}
