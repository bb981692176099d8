import { nextAfter } from '../../apimachinery/cron/next'
import { CronSyntaxError, parseCron, type CronSchedule } from '../../apimachinery/cron/parse'
import { isValidZone } from '../../apimachinery/cron/zone'
import type { CronJob } from './cronjob'
import { parseTime } from '../../apimachinery/meta-time'

/** More missed start times than this get the TooManyMissedTimes warning. */
export const MANY_MISSED = 100

export type ParsedSchedule =
  | { ok: true; schedule: CronSchedule; zone?: string }
  | { ok: false; reason: 'UnknownTimeZone' | 'UnparseableSchedule'; message: string }

/** The CronJob's schedule and zone (a CRON_TZ=/TZ= prefix, else spec.timeZone, else UTC). */
export function scheduleOf(cj: CronJob): ParsedSchedule {
  const text = cj.spec.schedule ?? ''
  let schedule: CronSchedule
  try {
    schedule = parseCron(text)
  } catch (e) {
    if (!(e instanceof CronSyntaxError)) throw e
    return {
      ok: false,
      reason: 'UnparseableSchedule',
      message: `unparseable schedule: ${JSON.stringify(text)} : ${e.message}`,
    }
  }
  const zone = schedule.timeZone ?? cj.spec.timeZone ?? undefined
  if (zone && !isValidZone(zone))
    return {
      ok: false,
      reason: 'UnknownTimeZone',
      message: `invalid timeZone: ${JSON.stringify(zone)}: unknown time zone ${zone}`,
    }
  return zone ? { ok: true, schedule, zone } : { ok: true, schedule }
}

export interface Due {
  /** the latest activation at or before now that has not been started, if any */
  scheduled?: number
  /** how many activations were missed since the last one started (1 when only `scheduled` is due) */
  missed: number
}

/** Windows searched back from now for the most recent activation once there are too many to walk. */
const windows = [3_600_000, 86_400_000, 32 * 86_400_000, 367 * 86_400_000, 5 * 367 * 86_400_000]

/**
 * mostRecentScheduleTime: activations since the last scheduled time (or creation), no earlier than
 * startingDeadlineSeconds before now. Walking stops after MANY_MISSED; the most recent one is then
 * found by searching back from now in widening windows.
 */
export function dueActivation(
  cj: CronJob,
  s: CronSchedule,
  zone: string | undefined,
  now: number,
): Due {
  let earliest =
    parseTime(cj.status.lastScheduleTime) ?? parseTime(cj.metadata.creationTimestamp) ?? now
  const sds = cj.spec.startingDeadlineSeconds
  if (typeof sds === 'number') earliest = Math.max(earliest, now - sds * 1000)
  let scheduled: number | undefined
  let missed = 0
  for (
    let t = nextAfter(s, earliest, zone);
    t !== undefined && t <= now;
    t = nextAfter(s, t, zone)
  ) {
    scheduled = t
    if (++missed > MANY_MISSED) break
  }
  if (missed <= MANY_MISSED) return scheduled === undefined ? { missed: 0 } : { scheduled, missed }
  for (const w of windows) {
    let latest: number | undefined
    for (
      let t = nextAfter(s, Math.max(earliest, now - w), zone);
      t !== undefined && t <= now;
      t = nextAfter(s, t, zone)
    )
      latest = t
    if (latest !== undefined) return { scheduled: latest, missed }
  }
  return { scheduled, missed }
}
