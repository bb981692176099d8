import { parseTime } from '../apimachinery/meta-time'
/**
 * Human-readable durations for Table cells (Age, Duration, Last Seen, restart times), following
 * the precision rules of upstream's HumanDuration so kubectl output reads the same as against a
 * real cluster: about two significant units, finer near the short end.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '<invalid>'
  const seconds = Math.trunc(ms / SECOND)
  // A clock a second or so ahead of ours still reads as "now"; anything further is a bad value.
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 2 * 60) return `${seconds}s`

  const minutes = Math.floor(ms / MINUTE)
  if (minutes < 10) {
    const s = seconds % 60
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`
  }
  if (minutes < 3 * 60) return `${minutes}m`

  const hours = Math.floor(ms / HOUR)
  if (hours < 8) {
    const m = minutes % 60
    return m === 0 ? `${hours}h` : `${hours}h${m}m`
  }
  if (hours < 48) return `${hours}h`

  const days = Math.floor(hours / 24)
  if (hours < 24 * 8) {
    const h = hours % 24
    return h === 0 ? `${days}d` : `${days}d${h}h`
  }
  if (hours < 24 * 365 * 2) return `${days}d`

  const years = Math.floor(days / 365)
  if (hours < 24 * 365 * 8) {
    const d = days % 365
    return d === 0 ? `${years}y` : `${years}y${d}d`
  }
  return `${years}y`
}

/** Time elapsed since `timestamp`, as the Age column shows it; `<unknown>` when it is not set. */
export function age(timestamp: unknown, now: number): string {
  const ms = parseTime(timestamp)
  return ms === undefined ? '<unknown>' : humanDuration(now - ms)
}
