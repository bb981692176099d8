/**
 * The standard five-field cron syntax Kubernetes accepts (robfig/cron's standard parser): lists,
 * ranges, steps (`*\/5`, `1-30/10`, `5/15` meaning 5 to the end), month and weekday names, `?` as
 * `*`, the `@yearly`…`@hourly` macros, and a leading `CRON_TZ=` or `TZ=` zone.
 */

export interface CronSchedule {
  minutes: Set<number>
  hours: Set<number>
  daysOfMonth: Set<number>
  months: Set<number>
  /** 0 is Sunday */
  daysOfWeek: Set<number>
  /** whether the day-of-month or day-of-week field was `*` or `?`: then both must match, otherwise either */
  domStar: boolean
  dowStar: boolean
  /** an IANA zone from a CRON_TZ= or TZ= prefix */
  timeZone?: string
}

export class CronSyntaxError extends Error {}

interface Bounds {
  min: number
  max: number
  names?: Record<string, number>
}

const monthNames = Object.fromEntries(
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map(
    (n, i) => [n, i + 1],
  ),
)
const dayNames = Object.fromEntries(
  ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((n, i) => [n, i]),
)

const fields: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: monthNames },
  { min: 0, max: 6, names: dayNames },
]

const macros: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
}

function value(text: string, b: Bounds): number {
  const named = b.names?.[text.toLowerCase()]
  if (named !== undefined) return named
  if (!/^\d+$/.test(text)) throw new CronSyntaxError(`failed to parse int from ${text}`)
  return Number(text)
}

/** One comma-separated term; returns whether it was a plain `*` or `?` (robfig's star bit). */
function addTerm(term: string, b: Bounds, into: Set<number>): boolean {
  const [range = '', stepText, extra] = term.split('/')
  if (extra !== undefined) throw new CronSyntaxError(`too many slashes: ${term}`)
  let start = b.min
  let end = b.max
  let star = range === '*' || range === '?'
  if (!star) {
    const [lo = '', hi, more] = range.split('-')
    if (more !== undefined) throw new CronSyntaxError(`too many hyphens: ${range}`)
    start = value(lo, b)
    end = hi !== undefined ? value(hi, b) : stepText !== undefined ? b.max : start
  }
  let step = 1
  if (stepText !== undefined) {
    if (!/^\d+$/.test(stepText) || Number(stepText) === 0)
      throw new CronSyntaxError(`step of range should be a positive number: ${term}`)
    step = Number(stepText)
    if (step > 1) star = false
  }
  if (start < b.min)
    throw new CronSyntaxError(`beginning of range (${start}) below minimum (${b.min}): ${term}`)
  if (end > b.max)
    throw new CronSyntaxError(`end of range (${end}) above maximum (${b.max}): ${term}`)
  if (start > end)
    throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${term}`)
  for (let v = start; v <= end; v += step) into.add(v)
  return star
}

function field(text: string, b: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>()
  let star = false
  for (const term of text.split(',')) star = addTerm(term, b, values) || star
  return { values, star }
}

export function parseCron(spec: string): CronSchedule {
  let text = spec.trim()
  let timeZone: string | undefined
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(text)
  if (tz) {
    timeZone = tz[1]
    text = text.slice(tz[0].length).trim()
  }
  if (text.startsWith('@')) {
    const expanded = macros[text.toLowerCase()]
    if (!expanded) throw new CronSyntaxError(`unrecognized descriptor: ${text}`)
    text = expanded
  }
  const parts = text.split(/\s+/)
  if (parts.length !== 5)
    throw new CronSyntaxError(`expected exactly 5 fields, found ${parts.length}: ${text}`)
  const [minutes, hours, dom, months, dow] = parts.map((p, i) => field(p, fields[i]!))
  return {
    minutes: minutes!.values,
    hours: hours!.values,
    daysOfMonth: dom!.values,
    months: months!.values,
    daysOfWeek: dow!.values,
    domStar: dom!.star,
    dowStar: dow!.star,
    ...(timeZone ? { timeZone } : {}),
  }
}
