import type { CronSchedule } from './parse'
import { fromWall, toWall } from './zone'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
/** As robfig/cron: a schedule with no match within five years never runs (say, February 30). */
const SEARCH_YEARS = 5

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate())
  const dow = s.daysOfWeek.has(d.getUTCDay())
  return s.domStar || s.dowStar ? dom && dow : dom || dow
}

/** The first wall-clock minute strictly after `wall` that the schedule matches. */
function nextWall(s: CronSchedule, wall: number): number | undefined {
  let t = Math.floor(wall / MINUTE) * MINUTE + MINUTE
  const limit = Date.UTC(new Date(t).getUTCFullYear() + SEARCH_YEARS, 0, 1)
  while (t < limit) {
    const d = new Date(t)
    if (!s.months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
      continue
    }
    if (!dayMatches(s, d)) {
      t = Math.floor(t / DAY) * DAY + DAY
      continue
    }
    if (!s.hours.has(d.getUTCHours())) {
      t = Math.floor(t / HOUR) * HOUR + HOUR
      continue
    }
    if (!s.minutes.has(d.getUTCMinutes())) {
      t += MINUTE
      continue
    }
    return t
  }
  return undefined
}

/**
 * The next activation strictly after the instant, evaluated on the wall clock of the zone (UTC
 * when none). Wall times a DST change skips are passed over; a repeated hour runs once, at its
 * first occurrence.
 */
export function nextAfter(s: CronSchedule, after: number, zone?: string): number | undefined {
  let wall = toWall(after, zone)
  for (let guard = 0; guard < 1000; guard++) {
    const w = nextWall(s, wall)
    if (w === undefined) return undefined
    const instant = fromWall(w, zone)
    if (instant !== undefined && instant > after) return instant
    wall = w
  }
  return undefined
}
