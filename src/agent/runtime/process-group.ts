/** Signals to a process container's process group, and the exit code of a process a signal ended. */
import type { ChildProcess } from 'node:child_process'
import { constants } from 'node:os'

/** Sends `signal` to the child's whole process group (to the child alone if the group is gone). */
export function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {
      // already gone
    }
  }
}

/** The exit code a shell reports: the process's own, or 128 + the number of the signal that ended it. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)
}
