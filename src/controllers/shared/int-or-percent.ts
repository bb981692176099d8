/**
 * intstr.GetScaledValueFromIntOrPercent: an int is used as is; "N%" is N percent of total, rounded
 * up or down as asked. A bare number in a string is read as that number; anything else is invalid
 * (validation rejects it before a controller sees it) and counts as 0.
 */
export function scaledValue(
  v: number | string | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : 0
  if (typeof v !== 'string') return 0
  const m = /^(-?\d+)%$/.exec(v)
  if (!m) return /^-?\d+$/.test(v) ? Number(v) : 0
  const scaled = (Number(m[1]) * total) / 100
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled)
}
