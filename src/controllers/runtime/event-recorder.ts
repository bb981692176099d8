import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { formatTime } from '../../apimachinery/meta-time'
import { events as eventsRef, resourceDefOf } from '../resources'
import type { ActionOf } from './actions'
import type { ControllerStores } from './controller-stores'
import { EventCorrelator } from './event-correlator'
import { newEvent } from './event-object'
import { EventSpamFilter } from './event-spam-filter'
import { written } from './written'

type EventAction = ActionOf<'event'>

/** Events sent to the events store per call. */
const eventsPerCall = 50

/**
 * A controller's event recorder, as client-go's tools/record gives each of kube-controller-manager's
 * controllers one: its spam filter holds back events about an object that gets too many, and its
 * correlator turns a repeat of an event written before into a bump of that event's count and
 * lastTimestamp. Both remember recent events in memory, for as long as the runner lives.
 */
export class EventRecorder {
  private readonly correlator = new EventCorrelator()
  private readonly spamFilter = new EventSpamFilter()

  constructor(private readonly stores: ControllerStores) {}

  /** Writes an event unless the spam filter holds it back. */
  async record(action: EventAction, controller: string, now: number): Promise<void> {
    const event = newEvent(action, controller, now)
    if (!this.heldBack(event, now)) await this.write(event, now)
  }

  /**
   * Writes many events, less those the spam filter holds back: the new ones in calls of up to
   * `eventsPerCall` to the events store, then the repeats (of earlier events, or of one in this
   * batch) as `record` bumps them. Answers per event: undefined when written or held back, else
   * the store's refusal. `onCall` is told of each store call.
   */
  async recordMany(
    events: readonly { action: EventAction; now: number }[],
    controller: string,
    onCall: () => void = () => {},
  ): Promise<(Status | undefined)[]> {
    const def = resourceDefOf(eventsRef)
    const store = this.stores.store(def)
    const answers: (Status | undefined)[] = new Array(events.length).fill(undefined)
    const fresh: { index: number; event: KubeObject }[] = []
    const repeats: { index: number; event: KubeObject; now: number }[] = []
    for (const [index, { action, now }] of events.entries()) {
      const event = newEvent(action, controller, now)
      if (this.heldBack(event, now)) continue
      if (this.correlator.repeatOf(event)) repeats.push({ index, event, now })
      else {
        fresh.push({ index, event })
        this.correlator.remember(event, {
          namespace: event.metadata.namespace!,
          name: event.metadata.name!,
          count: 1,
        })
      }
    }
    for (let done = 0; done < fresh.length; ) {
      const batch = fresh.slice(done, done + eventsPerCall)
      onCall()
      const results = await store.createMany(
        def,
        batch.map((f) => f.event),
      )
      if (results.length === 0) throw new Error('the events store answered no create')
      for (const [i, r] of results.entries()) {
        if (r.object !== undefined) continue
        this.correlator.forget(batch[i]!.event)
        answers[batch[i]!.index] = r.status
      }
      done += results.length
    }
    for (const r of repeats) {
      try {
        await this.write(r.event, r.now, onCall)
      } catch (e) {
        if (!(e instanceof ApiError)) throw e
        answers[r.index] = e.status
      }
    }
    return answers
  }

  /**
   * Whether the spam filter holds the event back. As upstream's correlator, a held-back repeat still
   * counts: the next one written carries the count of every occurrence.
   */
  private heldBack(event: KubeObject, now: number): boolean {
    if (this.spamFilter.admits(event, now)) return false
    const repeat = this.correlator.repeatOf(event)
    if (repeat) this.correlator.remember(event, { ...repeat, count: repeat.count + 1 })
    return true
  }

  /** Writes an event, or, when it repeats one written before, bumps that event's count and lastTimestamp. */
  private async write(
    event: KubeObject,
    now: number,
    onCall: () => void = () => {},
  ): Promise<void> {
    const def = resourceDefOf(eventsRef)
    const store = this.stores.store(def)
    const repeat = this.correlator.repeatOf(event)
    if (repeat) {
      const count = repeat.count + 1
      onCall()
      const res = await store.patch(
        { def, namespace: repeat.namespace, name: repeat.name },
        'merge',
        { count, lastTimestamp: formatTime(now) },
        undefined,
        {},
      )
      if (res.ok) {
        this.correlator.remember(event, { ...repeat, count })
        return
      }
      // Expired or deleted since: the repeat starts a new event.
      this.correlator.forget(event)
    }
    onCall()
    written(
      await store.create(
        { def, namespace: event.metadata.namespace, name: event.metadata.name! },
        event,
        {},
      ),
    )
    this.correlator.remember(event, {
      namespace: event.metadata.namespace!,
      name: event.metadata.name!,
      count: 1,
    })
  }
}
