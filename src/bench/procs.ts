import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'

const STOP_GRACE_MS = 5_000
const OUTPUT_LIMIT = 32 * 1024

/** A child started in its own process group, so stopping it also reaches what it started (workerd). */
export interface GroupProcess {
  name: string
  child: ChildProcess
  pid: number
  /** The last 32 KiB of its stdout and stderr. */
  output(): string
  exited(): boolean
  stop(): Promise<void>
}

const live = new Set<GroupProcess>()

// Last resort: whatever path ends this process, nothing it started keeps running.
process.on('exit', () => {
  for (const p of live) killGroup(p.pid, 'SIGKILL')
})

export function spawnGroup(
  name: string,
  command: string,
  args: string[],
  opts: SpawnOptions = {},
): GroupProcess {
  const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  const collect = (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)
    if (process.env.BENCH_VERBOSE) process.stderr.write(chunk)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  if (child.pid === undefined) {
    child.on('error', () => {})
    throw new Error(`cannot start ${name} (${command})`)
  }
  const proc: GroupProcess = {
    name,
    child,
    pid: child.pid,
    output: () => out,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () => stopGroup(proc),
  }
  child.on('error', (err) => (out += `\n${err.message}`))
  child.on('exit', () => {
    // The leader is gone; anything left in its group goes with it.
    killGroup(proc.pid, 'SIGKILL')
    live.delete(proc)
  })
  live.add(proc)
  return proc
}

/** SIGTERM to the leader, SIGKILL to the whole group after 5 s, then SIGKILL to any leftover. */
async function stopGroup(p: GroupProcess): Promise<void> {
  if (!p.exited()) {
    const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()))
    p.child.kill('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const inTime = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), STOP_GRACE_MS))),
    ])
    clearTimeout(timer)
    if (!inTime) {
      killGroup(p.pid, 'SIGKILL')
      await exited
    }
  }
  killGroup(p.pid, 'SIGKILL')
  live.delete(p)
}

/** Stops every group still running, e.g. on Ctrl-C or after a failure. */
export async function stopAll(): Promise<void> {
  await Promise.allSettled([...live].map((p) => p.stop()))
}

export function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // The group is already gone.
  }
}
