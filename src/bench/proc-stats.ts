import { readdirSync, readFileSync } from 'node:fs'

// Linux reports utime/stime in clock ticks of 1/100 s on every architecture Node supports.
const TICK_MS = 10

/** PIDs of the processes in a process group whose command name is `comm` (all of them when omitted). */
export function groupMembers(pgid: number, comm?: string): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const out: number[] = []
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue
    const stat = readStat(Number(e))
    if (stat && stat.pgrp === pgid && (comm === undefined || stat.comm === comm))
      out.push(Number(e))
  }
  return out
}

interface Stat {
  comm: string
  pgrp: number
  cpuMs: number
}

function readStat(pid: number): Stat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name may itself hold spaces and parentheses; the fields after it never do.
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  const fields = text.slice(close + 2).split(' ')
  return {
    comm: text.slice(open + 1, close),
    pgrp: Number(fields[2]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
  }
}

/** User + system CPU time a process has used so far, in ms. */
export function cpuMs(pid: number): number | undefined {
  return readStat(pid)?.cpuMs
}

/** Current and peak (high-water mark) resident set size, in MiB. */
export function rssMb(pid: number): { rss: number; peak: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/**
 * Follows the peak RSS of some processes: samples every 250 ms, and also reads the kernel's own
 * high-water mark so a spike between two samples is not missed.
 */
export class RssSampler {
  private peakMb = 0
  private readonly timer: NodeJS.Timeout

  constructor(private readonly pids: () => number[]) {
    this.timer = setInterval(() => this.sample(), 250)
    this.timer.unref()
    this.sample()
  }

  sample(): void {
    for (const pid of this.pids()) {
      const m = rssMb(pid)
      if (m)
        this.peakMb = Math.max(
          this.peakMb,
          Number.isFinite(m.peak) ? m.peak : 0,
          Number.isFinite(m.rss) ? m.rss : 0,
        )
    }
  }

  /** The peak so far in MiB, or undefined when nothing could be read (no /proc). */
  stop(): number | undefined {
    this.sample()
    clearInterval(this.timer)
    return this.peakMb > 0 ? this.peakMb : undefined
  }
}
