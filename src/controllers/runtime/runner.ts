import type { ControllerBindings } from '../bindings'
import type { ChangeType, KubeObject } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { batchLookups } from '../../admission/lookups'
import { settingsOf } from '../../settings/settings'
import type { ActionContext } from './action-context'
import { BindingBatch, isBinding, type KeySettled } from './binding-batch'
import { InformerCaches, refKey } from './cache'
import { envStores } from './controller-stores'
import { EventRecorder } from './event-recorder'
import { applyKeyActions } from './key-actions'
import { ControllerMemory } from './memory'
import { PassBudget } from './pass-budget'
import { WorkQueue } from './queue'
import { reflect } from './reflector'
import { resourceDefOf } from '../resources'
import { storeName } from '../../apis/registry'
import { RefusedAction } from './refusal'
import { defaultRunnerOptions, type PassReport, type RunnerOptions } from './runner-options'
import type { ControllerDefinition, Refused, ResourceRef } from './types'

export { defaultRunnerOptions, type PassReport, type RunnerOptions } from './runner-options'

/**
 * Informer caches read by several runners in one host: whichever runner reads a change applies it
 * once and queues it for every runner that watches its kind (see `runnersSharingCaches`).
 */
export interface SharedCaches {
  readonly caches: InformerCaches
  readonly runners: ControllerRunner[]
}

/**
 * Runs one controller, pass by pass: its reflectors bring its caches up to date from the stores'
 * change logs, and its handlers queue the keys each change concerns (plus every key at each
 * resync); then it reconciles the due keys one at a time, within the pass's budget, applying the
 * actions each pure reconcile returns, and keeps what reconcile asked it to remember and the
 * write the API last refused for each key.
 */
export class ControllerRunner {
  readonly caches: InformerCaches
  readonly queue = new WorkQueue()
  /** what reconcile asked to remember; its host keeps it in storage */
  readonly memory = new ControllerMemory()
  /** per key, the write the API refused in its last reconcile: the next one is told of it; its host keeps them in storage */
  readonly refusals = new ControllerMemory<Refused>()
  private readonly shared: SharedCaches
  private readonly watched: Set<string>
  private readonly actions: ActionContext
  private nextResyncAt = 0

  constructor(
    private readonly env: ControllerBindings,
    readonly def: ControllerDefinition,
    private readonly opts: RunnerOptions = defaultRunnerOptions,
    shared?: SharedCaches,
  ) {
    this.shared = shared ?? {
      caches: new InformerCaches(settingsOf(env).strictLimits, (r) => def.watches.reads?.(r)),
      runners: [],
    }
    this.shared.runners.push(this)
    this.caches = this.shared.caches
    this.watched = new Set(def.watches.kinds.map(refKey))
    const stores = envStores(env)
    this.actions = {
      env,
      stores,
      caches: this.caches,
      recorder: new EventRecorder(stores),
      controller: def.name,
    }
  }

  async pass(clock: () => number = Date.now): Promise<PassReport> {
    const start = clock()
    const budget = new PassBudget(this.opts, start)
    for (const r of this.def.watches.kinds) await this.sync(r, clock, budget)
    if (start >= this.nextResyncAt) {
      for (const key of budget.computing(() => this.def.watches.allKeys(this.caches)))
        this.queue.add(key, start)
      this.nextResyncAt = start + Math.max(this.opts.resyncMs, this.def.resyncMs ?? 0)
    }
    const report: PassReport = { reconciled: 0, failed: 0, actions: 0, calls: 0, nextAt: undefined }
    const settled: KeySettled = {
      failed: (key, e) => {
        if (!(e instanceof ApiError))
          console.error(`${this.def.name}: reconcile of ${key} failed`, e)
        if (e instanceof RefusedAction)
          this.refusals.set(key, { action: e.action, status: e.status })
        else this.refusals.delete(key)
        this.queue.addRateLimited(key, clock())
        report.failed++
      },
      done: (key, requeueAfterMs, now) => {
        this.queue.forget(key)
        this.refusals.delete(key)
        if (requeueAfterMs !== undefined) this.queue.add(key, now + requeueAfterMs)
      },
    }
    const bindings = new BindingBatch(this.env, this.actions, budget.countCall, settled)
    let budgetLeft = true
    const due = this.queue.takeDue(clock())
    for (const key of this.def.watches.order ? this.def.watches.order(due, this.caches) : due) {
      if (!budgetLeft) {
        this.queue.add(key, clock())
        continue
      }
      const now = clock()
      try {
        const outcome = budget.computing(() =>
          this.def.reconcile(key, this.caches, now, this.refusals.get(key), this.memory),
        )
        this.memory.apply(outcome.memory)
        budget.actions += outcome.actions.length
        report.reconciled++
        if (isBinding(outcome.actions))
          await bindings.add(key, outcome.actions, outcome.requeueAfterMs, now)
        else {
          await applyKeyActions(this.actions, outcome.actions, now, budget.countCall, () =>
            batchLookups(this.env),
          )
          settled.done(key, outcome.requeueAfterMs, now)
        }
      } catch (e) {
        settled.failed(key, e)
      }
      if (budget.spent(clock())) budgetLeft = false
    }
    await bindings.finish()
    report.actions = budget.actions
    report.nextAt = Math.min(this.queue.nextDue() ?? Infinity, this.nextResyncAt)
    report.cpuMs = budget.cpuMs
    report.calls = budget.calls
    return report
  }

  /** Brings one kind's cache up to date, queuing what its changes concern for every runner sharing it that watches it. */
  private sync(r: ResourceRef, clock: () => number, budget: PassBudget): Promise<void> {
    const key = refKey(r)
    const watchers = this.shared.runners.filter((runner) => runner.watched.has(key))
    const handlers = {
      listed: (objects: KubeObject[], now: number) => {
        for (const runner of watchers) runner.queueListed(r, objects, now)
      },
      changed: (
        type: ChangeType,
        object: KubeObject,
        previous: KubeObject | undefined,
        now: number,
      ) => {
        for (const runner of watchers) runner.queueChange(r, type, object, previous, now)
      },
    }
    return reflect(
      this.env,
      r,
      this.caches.of(r),
      handlers,
      budget,
      clock,
      this.opts.changesPerRead,
    )
  }

  /** Queues the keys a change of a kind this controller watches concerns (and that it queues on). */
  private queueChange(
    r: ResourceRef,
    type: ChangeType,
    obj: KubeObject,
    previous: KubeObject | undefined,
    now: number,
  ): void {
    const watches = this.def.watches
    if (watches.queuesOn && !watches.queuesOn(r, type, obj, previous)) return
    for (const k of watches.keysFor(r, obj, this.caches)) this.queue.add(k, now)
    if (previous) for (const k of watches.keysFor(r, previous, this.caches)) this.queue.add(k, now)
  }

  /**
   * Queues, due at `now`, the keys that `objects` of the store `store` concern: they passed their
   * deadline unchanged, for a kind whose deadlines this controller watches.
   */
  queueDue(store: string, objects: KubeObject[], now: number): void {
    const r = this.def.watches.deadlines?.find((d) => storeName(resourceDefOf(d)) === store)
    if (!r) return
    for (const o of objects)
      for (const k of this.def.watches.keysFor(r, o, this.caches)) this.queue.add(k, now)
  }

  /** Queues the keys every object of a relisted kind concerns. */
  private queueListed(r: ResourceRef, objects: KubeObject[], now: number): void {
    for (const o of objects)
      for (const k of this.def.watches.keysFor(r, o, this.caches)) this.queue.add(k, now)
  }
}
