// Miniflare never fires cron triggers by itself, so the launcher does, from wrangler.toml's crons:
// standard five-field expressions (the parser CronJobs use), evaluated in UTC as Workers do.
import {
  CronSyntaxError,
  parseCron as parseCronSpec,
  type CronSchedule as Spec,
} from '../apimachinery/cron/parse'
import { nextAfter } from '../apimachinery/cron/next'

export interface CronSchedule {
  expression: string
  /** whether the schedule fires at this minute (an instant on a whole minute) */
  firesAt(minute: number): boolean
}

/** The schedule of a cron trigger, or undefined when the expression does not parse. */
export function parseCron(expression: string): CronSchedule | undefined {
  let spec: Spec
  try {
    spec = parseCronSpec(expression)
  } catch (err) {
    if (err instanceof CronSyntaxError) return undefined
    throw err
  }
  return { expression, firesAt: (minute) => nextAfter(spec, minute - 1) === minute }
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
    for (const s of schedules) {
      if (!s.firesAt(slot)) continue
      if (running.has(s.expression)) {
        console.warn(
          `edgeplane: cron '${s.expression}' still running, skipping ${new Date(slot).toISOString()}`,
        )
        continue
      }
      running.add(s.expression)
      fire(s.expression, new Date(slot))
        .catch((err: unknown) =>
          console.error(`edgeplane: cron '${s.expression}' failed: ${errorText(err)}`),
        )
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
