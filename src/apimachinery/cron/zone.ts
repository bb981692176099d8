/**
 * Wall-clock time in an IANA zone through Intl.DateTimeFormat. Wall times are represented as the
 * epoch milliseconds the same calendar fields would have in UTC, so calendar arithmetic can use
 * the UTC methods of Date whatever the zone.
 */

const formats = new Map<string, Intl.DateTimeFormat>()

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formats.set(zone, f)
  }
  return f
}

/** Whether the zone is one Intl knows; throws nothing. */
export function isValidZone(zone: string): boolean {
  try {
    formatFor(zone)
    return true
  } catch {
    return false
  }
}

const isUtc = (zone: string | undefined) => !zone || zone === 'UTC' || zone === 'Etc/UTC'

/** The wall-clock time of an instant in the zone. */
export function toWall(instant: number, zone: string | undefined): number {
  if (isUtc(zone)) return instant
  const parts: Record<string, number> = {}
  for (const p of formatFor(zone!).formatToParts(new Date(instant)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  )
  return wall + (((instant % 1000) + 1000) % 1000)
}

/**
 * The instant showing this wall-clock time in the zone, or undefined when the time does not exist
 * there (skipped by a forward DST change). When the time occurs twice, the earlier is returned.
 */
export function fromWall(wall: number, zone: string | undefined): number | undefined {
  if (isUtc(zone)) return wall
  const candidates = new Set<number>()
  // The offsets in force a day either side cover every transition that can affect this time.
  for (const probe of [wall - 86_400_000, wall, wall + 86_400_000])
    candidates.add(wall - (toWall(probe, zone) - probe))
  const matching = [...candidates].filter((t) => toWall(t, zone) === wall).sort((a, b) => a - b)
  return matching[0]
}
