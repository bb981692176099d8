import type { Env } from '../../env'
import type { ChangeType, KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { pods, resourceDefOf } from '../resources'
import { storeFor } from '../../store-client/stores'
import { listPages } from '../../store-client/list-pages'
import { applyAction, recordEvents } from './apply'
import { InformerCaches, refKey } from './cache'
import { WorkQueue } from './queue'
import type { Action, ControllerDefinition, ResourceRef } from './types'
import { slowStart } from './slow-start'
import { strictLimitsOn } from '../../limits/strict'
import { bindMany, bindingsPerCall, type BindAction } from './bind-many'
import { envStores, type ControllerStores } from './controller-stores'
import { batchLookups, type AdmissionLookups } from '../../admission/lookups'
import { naming, RefusedAction } from './refusal'

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

/** Batches of bindings written concurrently by one pass: enough to hide a store round trip, few enough to bound a burst. */
const maxBindingBatchesInFlight = 2

type EventAction = Extract<Action, { type: 'event' }>

/** A reconcile's binding, assumed in the cache and waiting to be written with others in one store call. */
interface PendingBinding {
  key: string
  actions: Action[]
  requeueAfterMs: number | undefined
  now: number
  undo: () => void
}

/** A reconcile that only binds a pod (and records events): the next key need not wait for it. */
const isBinding = (actions: Action[]) => actions.some((a) => a.type === 'bind') && actions.every((a) => a.type === 'bind' || a.type === 'event')

export const defaultRunnerOptions: RunnerOptions = { resyncMs: 30_000, passBudgetMs: 20_000, maxActionsPerPass: 400, maxCallsPerPass: 250, changesPerRead: 2000 }

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

/**
 * Informer caches read by several runners in one host: whichever runner reads a change applies it
 * once and queues it for every runner that watches its kind (see `runnersSharingCaches`).
 */
export interface SharedCaches {
  readonly caches: InformerCaches
  readonly runners: ControllerRunner[]
}

/**
 * Runs one controller: keeps its caches current from the stores' change logs, queues the keys
 * that changes concern (plus every key at each resync), and reconciles due keys one at a time,
 * applying the actions each pure reconcile returns.
 */
export class ControllerRunner {
  readonly caches: InformerCaches
  private readonly shared: SharedCaches
  private readonly watched: Set<string>
  readonly queue = new WorkQueue()
  private nextResyncAt = 0
  /** CPU of the running pass so far (see PassReport.cpuMs) */
  private cpuMs = 0
  /** store calls of the running pass so far (see PassReport.calls) */
  private calls = 0
  private readonly countCall = () => {
    this.calls++
  }
  private readonly stores: ControllerStores
  /** per key, the write the API refused in its last reconcile: the next one is told of it */
  private readonly refusals = new Map<string, RefusedAction>()

  constructor(
    private readonly env: Env,
    readonly def: ControllerDefinition,
    private readonly opts: RunnerOptions = defaultRunnerOptions,
    shared?: SharedCaches,
  ) {
    this.shared = shared ?? { caches: new InformerCaches(strictLimitsOn(env), (r) => def.reads?.(r)), runners: [] }
    this.shared.runners.push(this)
    this.caches = this.shared.caches
    this.watched = new Set(def.watches.map(refKey))
    this.stores = envStores(env)
  }

  /** The runners sharing these caches that watch `r` (this one among them when it does). */
  private watchersOf(r: ResourceRef): ControllerRunner[] {
    const key = refKey(r)
    return this.shared.runners.filter((runner) => runner.watched.has(key))
  }

  /** Queues the keys a change of a kind this controller watches concerns (and that it queues on). */
  private queueChange(r: ResourceRef, type: ChangeType, obj: KubeObject, previous: KubeObject | undefined, now: number): void {
    if (this.def.queuesOn && !this.def.queuesOn(r, type, obj, previous)) return
    for (const k of this.def.keysFor(r, obj, this.caches)) this.queue.add(k, now)
    if (previous) for (const k of this.def.keysFor(r, previous, this.caches)) this.queue.add(k, now)
  }

  /** Queues the keys every object of a relisted kind concerns. */
  private queueListed(r: ResourceRef, objects: KubeObject[], now: number): void {
    for (const o of objects) for (const k of this.def.keysFor(r, o, this.caches)) this.queue.add(k, now)
  }

  /** Runs synchronous work, adding its time to the pass's CPU. */
  private computing<T>(work: () => T): T {
    const started = performance.now()
    try {
      return work()
    } finally {
      this.cpuMs += performance.now() - started
    }
  }

  async pass(clock: () => number = Date.now): Promise<PassReport> {
    const start = clock()
    this.cpuMs = 0
    this.calls = 0
    for (const r of this.def.watches) await this.syncResource(r, clock)
    if (start >= this.nextResyncAt) {
      for (const key of this.computing(() => this.def.allKeys(this.caches))) this.queue.add(key, start)
      this.nextResyncAt = start + this.opts.resyncMs
    }
    const report: PassReport = { reconciled: 0, failed: 0, actions: 0, calls: 0, nextAt: undefined }
    const failed = (key: string, e: unknown) => {
      if (!(e instanceof ApiError)) console.error(`${this.def.name}: reconcile of ${key} failed`, e)
      if (e instanceof RefusedAction) this.refusals.set(key, e)
      else this.refusals.delete(key)
      this.queue.addRateLimited(key, clock())
      report.failed++
    }
    const done = (key: string, requeueAfterMs: number | undefined, now: number) => {
      this.queue.forget(key)
      this.refusals.delete(key)
      if (requeueAfterMs !== undefined) this.queue.add(key, now + requeueAfterMs)
    }
    const binding = new Set<Promise<void>>()
    let pending: PendingBinding[] = []
    const flush = async () => {
      if (!pending.length) return
      const batch = pending
      pending = []
      const p = this.writeBindings(batch, done, failed)
      binding.add(p)
      void p.finally(() => binding.delete(p))
      if (binding.size >= maxBindingBatchesInFlight) await Promise.race(binding)
    }
    let budgetLeft = true
    const due = this.queue.takeDue(clock())
    for (const key of this.def.order ? this.def.order(due, this.caches) : due) {
      if (!budgetLeft) {
        this.queue.add(key, clock())
        continue
      }
      const now = clock()
      try {
        const outcome = this.computing(() => this.def.reconcile(key, this.caches, now, this.refusals.get(key)))
        report.actions += outcome.actions.length
        report.reconciled++
        if (isBinding(outcome.actions)) {
          // As kube-scheduler's assume: the pod counts as bound in the cache at once, so the next
          // key sees the capacity it takes, while the binding itself is written in the background,
          // with others in one call to the pods store.
          pending.push({ key, actions: outcome.actions, requeueAfterMs: outcome.requeueAfterMs, now, undo: this.assume(outcome.actions) })
          if (pending.length >= bindingsPerCall) await flush()
        } else {
          await this.apply(outcome.actions, now)
          done(key, outcome.requeueAfterMs, now)
        }
      } catch (e) {
        failed(key, e)
      }
      if (clock() - start > this.opts.passBudgetMs || report.actions >= this.opts.maxActionsPerPass || this.calls >= this.opts.maxCallsPerPass) budgetLeft = false
    }
    await flush()
    await Promise.all(binding)
    const nextDue = this.queue.nextDue()
    report.nextAt = Math.min(nextDue ?? Infinity, this.nextResyncAt)
    report.cpuMs = this.cpuMs
    report.calls = this.calls
    return report
  }

  /**
   * Writes a batch of binding reconciles: their bindings in as few store calls as the store takes,
   * then their events likewise. A refused binding is taken back from the cache.
   */
  private async writeBindings(batch: PendingBinding[], done: (key: string, requeueAfterMs: number | undefined, now: number) => void, failed: (key: string, e: unknown) => void): Promise<void> {
    const binds = batch.map((b) => b.actions.filter((a): a is BindAction => a.type === 'bind'))
    let refusals: (Status | undefined)[]
    try {
      refusals = await bindMany(this.env, this.caches, binds.flat(), this.countCall)
    } catch (e) {
      for (const b of batch) {
        b.undo()
        failed(b.key, e)
      }
      return
    }
    let offset = 0
    const refusedOf = binds.map((own) => refusals.slice(offset, (offset += own.length)).find((r) => r !== undefined))
    const bound: PendingBinding[] = []
    batch.forEach((b, i) => {
      const refused = refusedOf[i]
      if (!refused) return bound.push(b)
      b.undo()
      failed(b.key, new ApiError(refused))
    })
    // A binding reconcile's other actions are its events: written many per call as well.
    const events = bound.map((b) => b.actions.filter((a): a is EventAction => a.type === 'event').map((action) => ({ action, now: b.now })))
    let eventRefusals: (Status | undefined)[]
    try {
      eventRefusals = await recordEvents(this.stores, events.flat(), this.def.name, this.countCall)
    } catch (e) {
      for (const b of bound) failed(b.key, e)
      return
    }
    offset = 0
    bound.forEach((b, i) => {
      const refused = eventRefusals.slice(offset, (offset += events[i]!.length)).find((r) => r !== undefined)
      if (refused) failed(b.key, new ApiError(refused))
      else done(b.key, b.requeueAfterMs, b.now)
    })
  }

  /** Records bindings in the cache before they are written; returns how to take them back. */
  private assume(actions: Action[]): () => void {
    const undo: (() => void)[] = []
    for (const a of actions) {
      if (a.type !== 'bind') continue
      const cache = this.caches.of(pods)
      const key = `${a.namespace}/${a.name}`
      const current = cache.get(key)
      if (!current) continue
      const assumed: KubeObject = { ...current, spec: { ...(current.spec as object), nodeName: a.nodeName } }
      cache.set(key, assumed)
      undo.push(() => {
        if (cache.get(key) === assumed) cache.set(key, current)
      })
    }
    return () => undo.forEach((u) => u())
  }

  /**
   * Applies a key's actions in order, a run of creates in slow-start batches; then its events,
   * many per call to the events store. A refused event fails the key, as a refused write does.
   * When a write is refused, the events decided before it are still written (upstream's
   * controllers record them as they go: a FailedCreate about the previous pass's refusal is
   * written even though this pass's create is refused again).
   */
  private async apply(all: Action[], now: number): Promise<void> {
    const write = (a: Action, lookups?: AdmissionLookups) => {
      this.countCall()
      return naming(a, applyAction(this.stores, this.caches, this.def.name, a, now, lookups))
    }
    const run = (a: Action) => write(a)
    const isEvent = (a: Action): a is EventAction => a.type === 'event'
    const actions = all.filter((a) => a.type !== 'event')
    let i = 0
    try {
      while (i < actions.length) {
        if (actions[i]!.type !== 'create') {
          await run(actions[i++]!)
          continue
        }
        let j = i
        while (j < actions.length && actions[j]!.type === 'create') j++
        // The creates of one batch share their admission reads, made after all of them began.
        const lookups: AdmissionLookups[] = []
        await slowStart(actions.slice(i, j), (a, batch) => write(a, (lookups[batch] ??= batchLookups(this.env))))
        i = j
      }
    } catch (e) {
      const stop = e instanceof RefusedAction ? all.indexOf(e.action) : -1
      if (stop > 0) await this.writeEvents(all.slice(0, stop).filter(isEvent), now).catch(() => undefined)
      throw e
    }
    await this.writeEvents(all.filter(isEvent), now)
  }

  /** Writes a key's events, many per call to the events store; a refused one fails the key. */
  private async writeEvents(events: EventAction[], now: number): Promise<void> {
    if (!events.length) return
    const answers = await recordEvents(this.stores, events.map((action) => ({ action, now })), this.def.name, this.countCall)
    const refused = answers.findIndex((r) => r !== undefined)
    if (refused >= 0) throw new RefusedAction(events[refused]!, answers[refused]!)
  }

  /** Lists a resource once, then follows its change log; a 410 (compacted past us) relists. */
  private async syncResource(r: ResourceRef, clock: () => number): Promise<void> {
    const def = resourceDefOf(r)
    const store = storeFor(this.env, def)
    const cache = this.caches.of(r)
    const watchers = this.watchersOf(r)
    for (;;) {
      if (!cache.synced) {
        const objects: KubeObject[] = []
        let rv = ''
        for await (const page of listPages(this.env, def, {})) {
          this.countCall()
          this.computing(() => {
            for (const text of page.items) objects.push(JSON.parse(text) as KubeObject)
          })
          rv = page.resourceVersion
        }
        const now = clock()
        this.computing(() => {
          // A relist (the log was compacted past the cache) also queues what the cached versions
          // concerned, those of objects deleted meanwhile among them, as their changes would have.
          const cached = cache.list()
          cache.reset(objects, Number(rv))
          for (const runner of watchers) runner.queueListed(r, [...cached, ...objects], now)
        })
        return
      }
      this.countCall()
      const batch = await store.changesSince(cache.rv, this.opts.changesPerRead)
      if (!batch.ok) {
        cache.synced = false
        continue
      }
      const now = clock()
      this.computing(() => {
        for (const change of batch.value.changes) {
          const obj = JSON.parse(change.value) as KubeObject
          const { previous, applied } = cache.apply(change.type, obj)
          if (applied) for (const runner of watchers) runner.queueChange(r, change.type, obj, previous, now)
        }
      })
      cache.rv = batch.value.rv
      if (!batch.value.more) return
    }
  }
}
