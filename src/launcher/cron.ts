// Miniflare never fires cron triggers by itself, so the launcher does, from wrangler.toml's crons.
//
// Supported expressions: the minute field may be `*`, `*/N` (N in 1..59) or a single minute `M`
// (0..59); the hour, day-of-month, month and day-of-week fields must be `*`. Anything else is
// reported at startup and never fired.

export interface CronSchedule {
  expression: string
  matches(minuteOfHour: number): boolean
}

export function parseCron(expression: string): CronSchedule | undefined {
  const fields = expression.trim().split(/\s+/)
  if (fields.length !== 5 || fields.slice(1).some((f) => f !== '*')) return undefined
  const minute = fields[0]!
  if (minute === '*') return { expression, matches: () => true }
  const step = /^\*\/(\d+)$/.exec(minute)
  if (step) {
    const n = Number(step[1])
    if (n < 1 || n > 59) return undefined
    return { expression, matches: (m) => m % n === 0 }
  }
  if (/^\d+$/.test(minute) && Number(minute) <= 59) {
    const at = Number(minute)
    return { expression, matches: (m) => m === at }
  }
  return undefined
}

export type FireScheduled = (cron: string, scheduledTime: Date) => Promise<void>

/**
 * Fires each schedule at the start of every matching minute (UTC). A run that is still going
 * when its next slot comes is not overlapped; that slot is skipped with a warning. Returns a stop
 * function.
 */
export function startCron(schedules: CronSchedule[], fire: FireScheduled): () => void {
  if (schedules.length === 0) return () => {}
  const running = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  const arm = () => {
    const now = Date.now()
    const next = Math.floor(now / 60_000) * 60_000 + 60_000
    timer = setTimeout(() => tick(next), next - now)
    // Cron alone must not keep the process alive; the server does.
    timer.unref()
  }

  const tick = (slot: number) => {
    if (stopped) return
    arm()
    const minute = new Date(slot).getUTCMinutes()
    for (const s of schedules) {
      if (!s.matches(minute)) continue
      if (running.has(s.expression)) {
        console.warn(`edgeplane: cron '${s.expression}' still running, skipping ${new Date(slot).toISOString()}`)
        continue
      }
      running.add(s.expression)
      fire(s.expression, new Date(slot))
        .catch((err: unknown) => console.error(`edgeplane: cron '${s.expression}' failed: ${errorText(err)}`))
        .finally(() => running.delete(s.expression))
    }
  }

  arm()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
