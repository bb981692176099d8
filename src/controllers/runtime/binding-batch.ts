import type { ControllerBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { namespacedKey } from '../../apimachinery/object-key'
import { pods } from '../resources'
import type { Action, ActionOf } from './actions'
import type { ActionContext } from './action-context'
import { bindMany, bindingsPerCall, type BindAction } from './bind-many'

type EventAction = ActionOf<'event'>

/** Batches of bindings written concurrently by one pass: enough to hide a store round trip, few enough to bound a burst. */
const maxBindingBatchesInFlight = 2

/** A reconcile that only binds a pod (and records events): the next key need not wait for it. */
export const isBinding = (actions: Action[]) =>
  actions.some((a) => a.type === 'bind') &&
  actions.every((a) => a.type === 'bind' || a.type === 'event')

/** How the pass hears that a key's actions were all written, or that one failed. */
export interface KeySettled {
  done(key: string, requeueAfterMs: number | undefined, now: number): void
  failed(key: string, e: unknown): void
}

/** A reconcile's binding, assumed in the cache and waiting to be written with others in one store call. */
interface PendingBinding {
  key: string
  actions: Action[]
  requeueAfterMs: number | undefined
  now: number
  undo: () => void
}

/**
 * The bindings of one pass, as kube-scheduler's assume: a pod counts as bound in the cache at once,
 * so the next key sees the capacity it takes, while the binding itself is written in the background,
 * with others in one call to the pods store (and their events likewise). A refused binding is taken
 * back from the cache.
 */
export class BindingBatch {
  private pending: PendingBinding[] = []
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly env: ControllerBindings,
    private readonly ctx: ActionContext,
    private readonly onCall: () => void,
    private readonly settled: KeySettled,
  ) {}

  /** Assumes a key's bindings, and writes the batch once it holds as many as one call takes. */
  async add(
    key: string,
    actions: Action[],
    requeueAfterMs: number | undefined,
    now: number,
  ): Promise<void> {
    this.pending.push({ key, actions, requeueAfterMs, now, undo: this.assume(actions) })
    if (this.pending.length >= bindingsPerCall) await this.flush()
  }

  /** Writes what is pending and waits for every batch still in flight. */
  async finish(): Promise<void> {
    await this.flush()
    await Promise.all(this.inFlight)
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return
    const batch = this.pending
    this.pending = []
    const p = this.write(batch)
    this.inFlight.add(p)
    void p.finally(() => this.inFlight.delete(p))
    if (this.inFlight.size >= maxBindingBatchesInFlight) await Promise.race(this.inFlight)
  }

  /** Writes a batch: its bindings in as few store calls as the store takes, then its events likewise. */
  private async write(batch: PendingBinding[]): Promise<void> {
    const { done, failed } = this.settled
    const binds = batch.map((b) => b.actions.filter((a): a is BindAction => a.type === 'bind'))
    let refusals: (Status | undefined)[]
    try {
      refusals = await bindMany(this.env, this.ctx.caches, binds.flat(), this.onCall)
    } catch (e) {
      for (const b of batch) {
        b.undo()
        failed(b.key, e)
      }
      return
    }
    let offset = 0
    const refusedOf = binds.map((own) =>
      refusals.slice(offset, (offset += own.length)).find((r) => r !== undefined),
    )
    const bound: PendingBinding[] = []
    batch.forEach((b, i) => {
      const refused = refusedOf[i]
      if (!refused) return bound.push(b)
      b.undo()
      failed(b.key, new ApiError(refused))
    })
    // A binding reconcile's other actions are its events: written many per call as well.
    const events = bound.map((b) =>
      b.actions
        .filter((a): a is EventAction => a.type === 'event')
        .map((action) => ({ action, now: b.now })),
    )
    let eventRefusals: (Status | undefined)[]
    try {
      eventRefusals = await this.ctx.recorder.recordMany(
        events.flat(),
        this.ctx.controller,
        this.onCall,
      )
    } catch (e) {
      for (const b of bound) failed(b.key, e)
      return
    }
    offset = 0
    bound.forEach((b, i) => {
      const refused = eventRefusals
        .slice(offset, (offset += events[i]!.length))
        .find((r) => r !== undefined)
      if (refused) failed(b.key, new ApiError(refused))
      else done(b.key, b.requeueAfterMs, b.now)
    })
  }

  /** Records bindings in the cache before they are written; returns how to take them back. */
  private assume(actions: Action[]): () => void {
    const undo: (() => void)[] = []
    for (const a of actions) {
      if (a.type !== 'bind') continue
      const cache = this.ctx.caches.of(pods)
      const key = namespacedKey(a.namespace, a.name)
      const current = cache.get(key)
      if (!current) continue
      const assumed: KubeObject = {
        ...current,
        spec: { ...(current.spec as object), nodeName: a.nodeName },
      }
      cache.set(key, assumed)
      undo.push(() => {
        if (cache.get(key) === assumed) cache.set(key, current)
      })
    }
    return () => undo.forEach((u) => u())
  }
}
