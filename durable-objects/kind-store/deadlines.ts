import type { KubeObject } from '../../src/apimachinery/types'
import type { StoreKinds, StoreStrategy } from '../../src/apis/store-strategy'
import type { Change, Log } from './log'
import { readMeta, writeMeta } from './meta'

/** where a store whose kind has deadlines keeps its name: an alarm may wake it before any write tells it its kind */
const storeNameKey = 'deadlines/store'
/** meta: every deadline before this time (epoch ms) was announced */
const announcedMeta = 'deadlines_announced'
const retryMs = 1000
const maxRetryMs = 30_000
/**
 * A write this close to the booked alarm (or past it) looks whether every deadline is later: then
 * the alarm moves to the earliest, so a store whose objects keep being renewed never wakes. At
 * least a renewal interval (a node Lease's 10 s), so one node's renewals come within it, and well
 * short of the grace period less one (30 s), so the earliest lease renewed before it begins.
 */
export const postponeWithinMs = 15_000

/** An object past its deadline (`at`); undefined when it is no longer stored */
interface Due {
  key: string
  at: number
  object: KubeObject | undefined
}

/**
 * The deadlines of a store's objects, as their kind's strategy gives them (a node Lease's renewTime
 * plus the node monitor grace period). They live in memory, built from the current objects when
 * first needed, so a write that moves one costs no row and wakes nobody. The store's alarm is
 * booked at the earliest (`nextAlarm`), no later. A write within `postponeWithinMs` of that time
 * looks for the earliest again (once per time booked, not per write, and when the object it is for is written) and `booked` moves to it when
 * every deadline is later: renewals keep the alarm from firing. With no write, it fires at the
 * earliest deadline (or for one a write moved since, and then books the next). An object whose
 * deadline has passed, unchanged since, is announced (`due`, then `announced`) until its
 * controllers heard it: what was announced survives a restart as one time in meta, and an
 * announcement that failed is made again by a later alarm.
 */
export class StoreDeadlines {
  private kind: StoreStrategy | undefined
  /** the store's name (`group/plural`), once its kind is known to have deadlines */
  private store = ''
  private looked = false
  /** per key, the pending deadline (epoch ms): the object is announced once the time is past it */
  private pendingAt: Map<string, number> | undefined
  /** the alarm time booked for the earliest deadline, if one is */
  booked: number | undefined
  /** the key whose deadline `booked` is for, when it is one */
  private bookedKey: string | undefined
  /** the booked time a write last looked past for a later earliest deadline */
  private lookedPast: number | undefined
  /** announcements that failed in a row, and when the next is tried */
  private failures = 0
  private retryAt: number | undefined

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly kinds: StoreKinds,
    private readonly log: Pick<Log, 'get' | 'scanCurrent'>,
  ) {}

  /** The store learnt its kind from a write: a kind with deadlines has its store's name kept. */
  learn(store: string, kind: StoreStrategy): void {
    if (this.kind || !kind.hasDeadlines) return
    if (this.storage.kv.get(storeNameKey) !== store) this.storage.kv.put(storeNameKey, store)
    this.kind = kind
    this.store = store
    this.looked = true
  }

  /**
   * A committed change at `nowMs`: its object's deadline replaces the one pending, and `booked`
   * comes forward to it if it is earlier, or moves later to the earliest deadline when the booked
   * time is within `postponeWithinMs` and every deadline is past it. That is looked for once per
   * booked time, and again when the object it was booked for is written.
   */
  record(change: Pick<Change, 'type' | 'key' | 'object'>, nowMs = Date.now()): void {
    if (!this.kind) return
    const pending = this.pending(this.kind)
    const at = change.type === 'DELETED' ? undefined : this.kind.deadline(change.object)
    if (at === undefined) {
      pending.delete(change.key)
      return
    }
    pending.set(change.key, at)
    if (this.booked === undefined) this.nextAlarm()
    else if (this.booked > at + 1) {
      this.booked = at + 1
      this.bookedKey = change.key
    } else if (
      this.booked - nowMs <= postponeWithinMs &&
      (this.lookedPast !== this.booked || this.bookedKey === change.key)
    ) {
      this.lookedPast = this.booked
      this.nextAlarm()
    }
  }

  /**
   * Announces through `tell` the objects whose deadline is past at `nowMs`: they end once told, and
   * are told again after a back-off when that fails. The alarm is then booked again by `nextAlarm`.
   */
  async announce(
    nowMs: number,
    tell: (store: string, objects: KubeObject[]) => Promise<boolean>,
  ): Promise<void> {
    const due = this.due(nowMs)
    if (!due.length) return
    if (
      await tell(
        this.store,
        due.flatMap((d) => (d.object ? [d.object] : [])),
      )
    )
      this.announced(due, nowMs)
    else this.failed(nowMs)
  }

  /** The objects whose deadline is past at `nowMs`. */
  private due(nowMs: number): Due[] {
    const kind = this.known()
    if (!kind) return []
    const due: Due[] = []
    for (const [key, at] of this.pending(kind)) {
      if (at >= nowMs) continue
      const row = this.log.get(key)
      due.push({ key, at, object: row && (JSON.parse(row.value) as KubeObject) })
    }
    return due
  }

  /**
   * `due` was announced at `nowMs`: those deadlines end, but for one a write moved meanwhile. Every
   * deadline before `nowMs` was, as the next instance reads from meta.
   */
  private announced(due: readonly Due[], nowMs: number): void {
    this.failures = 0
    for (const { key, at } of due) if (this.pendingAt?.get(key) === at) this.pendingAt.delete(key)
    if (due.length) writeMeta(this.storage.sql, announcedMeta, nowMs)
  }

  /** Announcing failed: the deadlines stay, announced again after a back-off (1 s doubling, at most 30 s). */
  private failed(nowMs: number): void {
    this.retryAt = nowMs + Math.min(maxRetryMs, retryMs * 2 ** this.failures++)
  }

  /** When the alarm is due for the earliest pending deadline (a millisecond past it), booked as such. */
  nextAlarm(): number | undefined {
    if (!this.pendingAt?.size) return undefined
    let earliest = Infinity
    for (const [key, at] of this.pendingAt)
      if (at < earliest) [earliest, this.bookedKey] = [at, key]
    this.booked = Math.max(earliest + 1, this.failures ? (this.retryAt ?? 0) : 0)
    return this.booked
  }

  /** The kind, found from the name kept in storage when no write told it since the store started. */
  private known(): StoreStrategy | undefined {
    if (this.kind || this.looked) return this.kind
    this.looked = true
    const name = this.storage.kv.get<string>(storeNameKey)
    const kind = name === undefined ? undefined : this.kinds.ofStore(name)
    if (!kind?.hasDeadlines) return undefined
    this.kind = kind
    this.store = name!
    return kind
  }

  private pending(kind: StoreStrategy): Map<string, number> {
    if (this.pendingAt) return this.pendingAt
    const announced = readMeta(this.storage.sql, announcedMeta)
    this.pendingAt = new Map()
    for (const row of this.log.scanCurrent(undefined, '')) {
      const at = kind.deadline(JSON.parse(row.value) as KubeObject)
      if (at !== undefined && at >= announced) this.pendingAt.set(row.key, at)
    }
    return this.pendingAt
  }
}
