export { timestamp } from '../../apis/strategy'

/** Epoch milliseconds of an RFC 3339 time, or undefined for a missing or unreadable one (a zero metav1.Time). */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined
  const ms = Date.parse(v)
  return Number.isNaN(ms) ? undefined : ms
}
