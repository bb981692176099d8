/** metav1.Time and metav1.MicroTime, as the API writes and reads them. */

const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z')

/** metav1.Time: RFC 3339 with whole seconds (the fraction is cut, as kube-apiserver stores it). */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/**
 * Milliseconds since the epoch of a metav1.Time or MicroTime, or undefined when the value is
 * absent, unreadable or Go's zero time, all of which mean "not set".
 */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined
  const ms = Date.parse(v)
  if (Number.isNaN(ms) || ms === GO_ZERO_TIME) return undefined
  return ms
}
