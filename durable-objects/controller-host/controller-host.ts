import { DurableObject } from 'cloudflare:workers'
import type { Env } from '../../src/env'
import { controllerDefinition } from '../../src/controllers/registry'
import { ControllerRunner, defaultRunnerOptions, type PassReport } from '../../src/controllers/runtime/runner'
import { loadCounters, saveCounters, type ControllerCounters } from './counters'
import { restoreMemory, saveMemory } from './memory'
import { recordPass } from './strict-limits'
import { emptyFigures, InvocationMeter, metered, strictLimitsOn } from '../../src/limits/strict'

const defaultPassGapMs = 100

/**
 * Hosts one controller. Its alarm drives passes: the next due key, or the periodic resync, sets
 * the next alarm; a store's change notification only brings the next pass forward. Caches and the
 * queue live in memory: after an eviction the first pass relists and resyncs every key, which is
 * exactly what a level-triggered controller needs. What the controller remembers beyond its caches
 * (its `memory`) is kept in storage and restored before a new instance's first pass. It counts its alarms and passes in storage
 * (see `ControllerCounters`), read by `GET /metrics`.
 */
export class ControllerHost extends DurableObject<Env> {
  private runner: ControllerRunner | undefined
  private name: string | undefined
  /** when the last notification arrived: one that lands during a pass must not be overwritten by the pass's own re-arm */
  private pokedAt = 0
  /** when the last pass ended: notifications bring the next one no sooner than `passGapMs` after it */
  private passEndedAt = 0
  private counters: Promise<ControllerCounters> | undefined

  /** A store committed a change this controller watches: run a pass soon. */
  async poke(name: string): Promise<void> {
    await this.remember(name)
    const counters = await this.loadedCounters()
    counters.notifications++
    this.pokedAt = Date.now()
    await this.ctx.storage.setAlarm(Math.max(this.pokedAt, this.passEndedAt + this.passGapMs()))
  }

  /**
   * A burst of changes is taken in passes at most this far apart: the first change after a quiet
   * spell is acted on at once, the rest of the burst in batches, so a controller's reads never
   * crowd out the writes it follows.
   */
  private passGapMs(): number {
    return Number(this.env.CONTROLLER_PASS_GAP_MS ?? defaultPassGapMs)
  }

  /** The cron safety net: re-arms a controller whose alarm was lost. */
  async ensureAlarm(name: string): Promise<void> {
    await this.remember(name)
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now())
  }

  /** The alarms fired and passes run so far. */
  async readCounters(): Promise<ControllerCounters> {
    return { ...(await this.loadedCounters()) }
  }

  override async alarm(): Promise<void> {
    const counters = await this.loadedCounters()
    counters.alarms++
    this.name ??= await this.ctx.storage.get<string>('controller')
    if (this.name && strictLimitsOn(this.env)) {
      const figures = (counters.limits ??= emptyFigures())
      await metered(new InvocationMeter(`controller ${this.name}`, figures), () => this.passAndRearm(counters))
    } else if (this.name) await this.passAndRearm(counters)
    await saveCounters(this.ctx.storage, counters)
  }

  private loadedCounters(): Promise<ControllerCounters> {
    this.counters ??= loadCounters(this.ctx.storage)
    return this.counters
  }

  private async passAndRearm(counters: ControllerCounters): Promise<void> {
    const runner = await this.runnerFor(this.name!)
    const startedAt = Date.now()
    let report: PassReport
    try {
      report = await runner.pass()
    } catch (e) {
      // A store that cannot be read now is retried on the next resync, never in a tight loop.
      console.error(`controller ${this.name}: pass failed`, e)
      counters.failedPasses++
      report = { reconciled: 0, failed: 1, actions: 0, calls: 0, nextAt: Date.now() + defaultRunnerOptions.resyncMs }
    }
    if (runner.def.memory) await saveMemory(this.ctx.storage, runner.def.memory)
    if (counters.limits) recordPass(counters.limits, `controller ${this.name}`, report, runner.caches.bytes)
    counters.passes++
    counters.reconciles += report.reconciled
    this.passEndedAt = Date.now()
    if (this.pokedAt >= startedAt) report.nextAt = Math.min(report.nextAt ?? Infinity, this.passEndedAt + this.passGapMs())
    if (report.nextAt !== undefined && Number.isFinite(report.nextAt)) await this.ctx.storage.setAlarm(Math.max(report.nextAt, Date.now()))
  }

  private async remember(name: string): Promise<void> {
    if (this.name === name) return
    this.name = name
    await this.ctx.storage.put('controller', name)
  }

  private async runnerFor(name: string): Promise<ControllerRunner> {
    if (!this.runner) {
      const resyncSeconds = Number(this.env.CONTROLLER_RESYNC_SECONDS ?? 30)
      const def = controllerDefinition(name, this.env)
      if (def.memory) await restoreMemory(this.ctx.storage, def.memory)
      this.runner = new ControllerRunner(this.env, def, { ...defaultRunnerOptions, resyncMs: resyncSeconds * 1000 })
    }
    return this.runner
  }
}
