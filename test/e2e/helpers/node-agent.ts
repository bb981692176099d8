import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { sleep } from './wait'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const OUTPUT_LIMIT = 64 * 1024

/** A node agent started as `npm run agent` starts it, in its own process group. */
export interface AgentProcess {
  child: ChildProcess
  output(): string
  stop(): Promise<void>
}

const running = new Set<AgentProcess>()
process.on('exit', () => {
  for (const a of running) killGroup(a.child, 'SIGKILL')
})

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

/** Starts `src/agent/cli.ts --kubeconfig FILE …args`; `stop()` ends it and everything in its group. */
export function startAgent(kubeconfig: string, args: string[], env: Record<string, string> = {}): AgentProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/agent/cli.ts', '--kubeconfig', kubeconfig, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let out = ''
  const collect = (c: Buffer) => {
    out = (out + c.toString('utf8')).slice(-OUTPUT_LIMIT)
    if (process.env.EDGEPLANE_E2E_VERBOSE) process.stderr.write(c)
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const agent: AgentProcess = {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const inTime = await Promise.race([exited.then(() => true), sleep(6_000).then(() => false)])
        if (!inTime) killGroup(child, 'SIGKILL')
      }
      // Anything the agent left in its group goes too.
      killGroup(child, 'SIGKILL')
      running.delete(agent)
    },
  }
  running.add(agent)
  return agent
}

/** One process-runtime node, verbose so its tunnel streams show in its output. */
export function startNodeAgent(kubeconfig: string, name: string): AgentProcess {
  return startAgent(kubeconfig, ['--name', name, '--runtime', 'process', '--verbose'])
}
