/** Starts a process container's main process in its own group, its output into the logs, and reports its end once. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { statSync } from 'node:fs'
import type { LogBuffer } from './log-buffer'
import { exitCodeOf, signalGroup } from './process-group'

const PIPE_DRAIN_MS = 2_000

/** How an instance ended, as its terminated state reports it. */
export interface InstanceEnd {
  exitCode: number
  reason: string
  message?: string
}

/**
 * Spawns `argv` in `cwd`, detached into its own process group, stdout and stderr into `logs`.
 * `ended` hears of a start error or of the end of the main process. A working directory that is
 * not there, or a spawn that throws, fails at once: `failed` is returned and `ended` never runs.
 */
export function spawnMain(
  argv: string[],
  options: Omit<SpawnOptions, 'stdio' | 'detached' | 'cwd'> & { cwd: string },
  logs: LogBuffer,
  ended: (end: InstanceEnd) => void,
): { child: ChildProcess } | { failed: InstanceEnd } {
  const startError = workingDirError(options.cwd)
  if (startError) return { failed: { exitCode: 128, reason: 'StartError', message: startError } }
  let child: ChildProcess
  try {
    child = spawn(argv[0]!, argv.slice(1), {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
  } catch (err) {
    return { failed: { exitCode: 128, reason: 'StartError', message: (err as Error).message } }
  }
  child.stdout!.on('data', (chunk: Buffer) => logs.write('stdout', chunk))
  child.stderr!.on('data', (chunk: Buffer) => logs.write('stderr', chunk))
  child.on('error', (err: NodeJS.ErrnoException) => {
    const message =
      err.code === 'ENOENT'
        ? `exec: "${argv[0]}": executable file not found in $PATH`
        : err.code === 'EACCES'
          ? `exec: "${argv[0]}": permission denied`
          : err.message
    ended({ exitCode: 128, reason: 'StartError', message })
  })
  // The main process's exit ends the container: the rest of its group is killed, and the
  // instance is finished once the output pipes have drained (or shortly after, if something
  // outside the group still holds them).
  let exitCode: number | undefined
  let drainTimer: NodeJS.Timeout | undefined
  const finish = () => {
    if (drainTimer) clearTimeout(drainTimer)
    const code = exitCode ?? 1
    ended({ exitCode: code, reason: code === 0 ? 'Completed' : 'Error' })
  }
  child.on('exit', (code, signal) => {
    exitCode = exitCodeOf(code, signal)
    signalGroup(child, 'SIGKILL')
    drainTimer = setTimeout(finish, PIPE_DRAIN_MS)
  })
  child.on('close', (code, signal) => {
    exitCode ??= exitCodeOf(code, signal)
    finish()
  })
  return { child }
}

function workingDirError(dir: string): string | undefined {
  try {
    if (statSync(dir).isDirectory()) return undefined
    return `failed to start container: chdir to cwd ("${dir}") set in config.json failed: not a directory`
  } catch {
    return `failed to start container: chdir to cwd ("${dir}") set in config.json failed: no such file or directory`
  }
}
