/**
 * Human-readable durations for Table cells (Age, Duration, Last Seen, restart times), following
 * the precision rules of upstream's HumanDuration so kubectl output reads the same as against a
 * real cluster: about two significant units, finer near the short end.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** Go's zero time.Time, which some clients serialize instead of leaving a timestamp out. */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z')

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

/**
 * Milliseconds since the epoch for an RFC 3339 timestamp (metav1.Time or MicroTime), or undefined
 * when the value is absent, unparsable or Go's zero time, all of which mean "not set".
 */
export function parseTime(timestamp: unknown): number | undefined {
  if (typeof timestamp !== 'string' || timestamp === '') return undefined
  const ms = Date.parse(timestamp)
  if (Number.isNaN(ms) || ms === GO_ZERO_TIME) return undefined
  return ms
}

/** Time elapsed since `timestamp`, as the Age column shows it; `<unknown>` when it is not set. */
export function age(timestamp: unknown, now: number): string {
  const ms = parseTime(timestamp)
  return ms === undefined ? '<unknown>' : humanDuration(now - ms)
}
