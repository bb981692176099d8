import { DurableObject } from 'cloudflare:workers'
import type { KubeObject } from '../../src/apimachinery/types'
import type { ControllerHostRpc, HostBindings } from '../../src/controllers/bindings'
import { controllerDefinition } from '../../src/controllers/registry'
import { controllersOfHost, hostOfController } from '../../src/controllers/hosts'
import {
  defaultRunnerOptions,
  type ControllerRunner,
  type PassReport,
} from '../../src/controllers/runtime/runner'
import { runnersSharingCaches } from '../../src/controllers/runtime/shared-caches'
import { loadCounters, saveCounters, type ControllerCounters } from './counters'
import { putMemory, restoreRunnerState, saveRunnerState } from './memory'
import { recordPass } from './strict-limits'
import { firedAt, HostSchedule, nextAlarmAt } from './schedule'
import { retiredHost } from './retire'
import { emptyFigures, InvocationMeter, metered } from '../../src/limits/strict'
import { settingsOf } from '../../src/settings/settings'
import { meteredState, meterEntryPoints, meterOf } from '../../src/limits/metered-object'
import type { ObjectUsage } from '../../src/limits/object-usage'

const defaultPassGapMs = 100
/** a pass that failed as a whole is tried again after this long, doubling while it keeps failing, at most a resync period */
const failedPassRetryMs = 1000
/** an alarm this far past its time, whose handler is not running, is taken as lost */
const lostAfterMs = 2_000

/**
 * Hosts one controller, or every controller that watches pods over one set of caches (see
 * `src/controllers/hosts.ts`). Its alarm drives passes, one controller's per alarm: the one due
 * earliest (see `HostSchedule`). A pass's due keys or resync set that controller's next due time; a
 * store's change notification only brings it forward. Caches and queues live in memory: after an
 * eviction the first pass relists and every controller resyncs every key, which is exactly what a
 * level-triggered controller needs. What a controller remembers beyond its caches (the memory its
 * reconciles ask for, and the write the API last refused for each key) is kept in storage and
 * restored before a new instance's first pass. It counts each controller's
 * alarms and passes in storage (see `ControllerCounters`), read by `GET /metrics`.
 */
export class ControllerHost extends DurableObject<HostBindings> implements ControllerHostRpc {
  private runners: Map<string, ControllerRunner> | undefined
  private host: string | undefined
  private readonly counters = new Map<string, Promise<ControllerCounters>>()
  private readonly schedule = new HostSchedule(settingsOf(this.env).controllerPassGapMs)
  /** the time of the alarm last set by this instance */
  private armed: number | undefined
  /** when the handler of the last alarm this instance ran began: no alarm is set again at or before it (see nextAlarmAt) */
  private fired: number | undefined
  /** whether this instance is running its alarm's handler */
  private running = false
  /** per controller, how many passes in a row failed as a whole */
  private readonly failures = new Map<string, number>()

  constructor(ctx: DurableObjectState, env: HostBindings) {
    super(ctx, env)
    this.ctx = meteredState(this.ctx, settingsOf(env).strictLimits)
  }

  /** A store committed a change the controller `name` watches: run its pass soon. */
  async poke(name: string): Promise<void> {
    await this.remember(hostOfController(name))
    const counters = await this.countersOf(name)
    counters.notifications++
    await this.armBy(this.schedule.poked(name, Date.now()))
  }

  /** Objects of the store `store` passed their deadline unchanged: the controller `name` reconciles what they concern soon. */
  async pokeDue(name: string, store: string, objects: KubeObject[]): Promise<void> {
    await this.remember(hostOfController(name))
    ;(await this.loadedRunners()).get(name)?.queueDue(store, objects, Date.now())
    await this.poke(name)
  }

  /** The cron safety net: re-arms a host whose alarm was lost (see `lost`). */
  async ensureAlarm(name: string): Promise<void> {
    await this.remember(hostOfController(name))
    const at = await this.ctx.storage.getAlarm()
    if (at === null || this.lost(at)) await this.setAlarm(Date.now())
  }

  /** The alarms fired and passes run so far by the controller `name`. */
  async readCounters(name: string): Promise<ControllerCounters> {
    return { ...(await this.countersOf(name)) }
  }

  /** What this host is billed for, in strict-limits mode (null otherwise); this read is not counted. */
  readUsage(): ObjectUsage | null {
    return meterOf(this.ctx)?.read() ?? null
  }

  /** Takes over what the controller `name` remembered in the host it ran in before. */
  async adoptMemory(name: string, entries: [string, unknown][]): Promise<void> {
    await putMemory(this.ctx.storage, name, entries)
    this.runners?.get(name)?.memory.restore(entries)
  }

  override async alarm(): Promise<void> {
    this.fired = firedAt(this.armed, Date.now())
    this.running = true
    try {
      await this.runAlarm()
    } catch (e) {
      // The runtime's own retries of a failed alarm back off to minutes, and a notification meanwhile
      // sees an alarm already due: the host re-arms itself instead.
      console.error(`controller host ${this.host}: alarm failed`, e)
      await this.setAlarm(Date.now() + failedPassRetryMs)
    } finally {
      this.running = false
    }
  }

  private async runAlarm(): Promise<void> {
    this.host ??= await this.ctx.storage.get<string>('host')
    if (!this.host) {
      // A host from before hosts could run several controllers: retired, or moved to the new keys.
      if (await retiredHost(this.ctx.storage, this.env)) return
      this.host = await this.ctx.storage.get<string>('host')
      if (!this.host) return
    }
    const members = controllersOfHost(this.host)
    const { name, at } = this.schedule.next(members)
    if (at <= Date.now()) await this.invocation(name, true)
    await this.armAt(members)
  }

  /** Runs one pass of the controller `name` now, in an invocation of its own, as its alarm does when it is due first. */
  async passNow(name: string): Promise<void> {
    await this.remember(hostOfController(name))
    await this.invocation(name, false)
    await this.armAt(controllersOfHost(this.host!))
  }

  private async invocation(name: string, alarm: boolean): Promise<void> {
    const counters = await this.countersOf(name)
    if (alarm) counters.alarms++
    if (settingsOf(this.env).strictLimits) {
      const figures = (counters.limits ??= emptyFigures())
      await metered(new InvocationMeter(`controller ${name}`, figures), () =>
        this.pass(name, counters),
      )
    } else await this.pass(name, counters)
    await saveCounters(this.ctx.storage, name, counters)
  }

  private countersOf(name: string): Promise<ControllerCounters> {
    let counters = this.counters.get(name)
    if (!counters) this.counters.set(name, (counters = loadCounters(this.ctx.storage, name)))
    return counters
  }

  private async pass(name: string, counters: ControllerCounters): Promise<void> {
    const runner = (await this.loadedRunners()).get(name)!
    const startedAt = Date.now()
    let report: PassReport
    try {
      report = await runner.pass()
      this.failures.delete(name)
    } catch (e) {
      // A store that cannot be read now: the queued keys stay queued, and the pass is tried again
      // after a back-off (1 s, 2 s, … at most a resync period), never in a tight loop.
      console.error(`controller ${name}: pass failed`, e)
      counters.failedPasses++
      const failures = (this.failures.get(name) ?? 0) + 1
      this.failures.set(name, failures)
      report = {
        reconciled: 0,
        failed: 1,
        actions: 0,
        calls: 0,
        nextAt:
          Date.now() +
          Math.min(
            settingsOf(this.env).controllerResyncMs,
            failedPassRetryMs * 2 ** (failures - 1),
          ),
      }
    }
    await saveRunnerState(this.ctx.storage, name, runner)
    if (counters.limits)
      recordPass(counters.limits, `controller ${name}`, report, runner.caches.bytes)
    counters.passes++
    counters.reconciles += report.reconciled
    this.schedule.passed(name, startedAt, Date.now(), report.nextAt)
  }

  /** Sets the alarm for the controller due earliest, if any is. */
  private async armAt(members: string[]): Promise<void> {
    const { at } = this.schedule.next(members)
    if (Number.isFinite(at)) await this.setAlarm(at)
  }

  /** Every alarm this instance sets goes through here: at `at`, but never in the past nor at or before the last alarm it ran. */
  private async setAlarm(at: number): Promise<void> {
    this.armed = nextAlarmAt(at, Date.now(), this.fired)
    await this.ctx.storage.setAlarm(this.armed)
  }

  /** Brings the alarm forward to `due` (never later), or replaces one that was lost. */
  private async armBy(due: number): Promise<void> {
    const at = nextAlarmAt(due, Date.now(), this.fired)
    const current = await this.ctx.storage.getAlarm()
    if (current === null || current > at || this.lost(current)) await this.setAlarm(at)
  }

  /**
   * Whether the stored alarm `at` is lost: well past its time and its handler not running. The
   * runtime keeps an alarm it will never fire (one set to the time of the handler that was running)
   * or will fire only after its own back-off (one whose handler failed), and a notification that
   * took it as due would set none.
   */
  private lost(at: number): boolean {
    return !this.running && at < Date.now() - lostAfterMs
  }

  private async remember(host: string): Promise<void> {
    if (this.host === host) return
    this.host = host
    await this.ctx.storage.put('host', host)
  }

  private async loadedRunners(): Promise<Map<string, ControllerRunner>> {
    if (!this.runners) {
      const names = controllersOfHost(this.host!)
      const defs = names.map((name) => controllerDefinition(name, this.env))
      const runners = runnersSharingCaches(this.env, defs, {
        ...defaultRunnerOptions,
        resyncMs: settingsOf(this.env).controllerResyncMs,
      })
      for (const [i, runner] of runners.entries())
        await restoreRunnerState(this.ctx.storage, names[i]!, runner)
      this.runners = new Map(names.map((name, i) => [name, runners[i]!]))
    }
    return this.runners
  }
}

meterEntryPoints(
  ControllerHost,
  ['poke', 'ensureAlarm', 'adoptMemory', 'passNow', 'alarm'],
  ['readCounters', 'readUsage'],
)
