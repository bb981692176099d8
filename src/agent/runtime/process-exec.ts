/** `kubectl exec` in a process container: a command in its own process group, with the container's user, directory and environment. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { exitCodeOf } from './process-group'
import type { ExecStreams } from './types'

/**
 * Runs `command` with `streams`, kept in `execs` while it runs (so that the container's end kills
 * it); resolves to its exit code: 127 when the program is not found, 126 when it cannot run.
 */
export function execProcess(
  execs: Set<ChildProcess>,
  command: string[],
  streams: ExecStreams,
  options: Omit<SpawnOptions, 'stdio' | 'detached'>,
): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(command[0]!, command.slice(1), {
      ...options,
      stdio: [streams.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    })
    execs.add(child)
    child.stdout!.on('data', (chunk: Buffer) => streams.stdout(new Uint8Array(chunk)))
    child.stderr!.on('data', (chunk: Buffer) => streams.stderr(new Uint8Array(chunk)))
    let done = false
    const finish = (code: number) => {
      if (done) return
      done = true
      execs.delete(child)
      resolve(code)
    }
    child.on('error', (err: NodeJS.ErrnoException) => {
      const text =
        err.code === 'ENOENT'
          ? `exec: "${command[0]}": executable file not found in $PATH\n`
          : `exec: "${command[0]}": ${err.message}\n`
      streams.stderr(new Uint8Array(Buffer.from(text)))
      finish(err.code === 'ENOENT' ? 127 : 126)
    })
    child.on('close', (code, signal) => finish(exitCodeOf(code, signal)))
    if (streams.stdin && child.stdin) {
      const stdin = child.stdin
      stdin.on('error', () => {})
      void (async () => {
        try {
          for await (const chunk of streams.stdin!)
            if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r))
        } catch {
          // the caller's stream broke: end the input all the same
        }
        stdin.end()
      })()
    }
  })
}
