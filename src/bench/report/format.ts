/** A number for people: thousands separators from 1,000, three significant digits below. */
export function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–'
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US')
  if (Math.abs(v) >= 100) return String(Math.round(v))
  return String(Number(v.toPrecision(3)))
}

export function goalText(goal: string | null): string {
  if (!goal) return '–'
  return goal.replace('>=', '≥').replace('<=', '≤')
}
