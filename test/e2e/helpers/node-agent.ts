import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sleep } from './wait'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const CLI = 'src/agent/cli.ts'
const STAND_IN = 'test/e2e/helpers/tunnel-agent.ts'
const OUTPUT_LIMIT = 64 * 1024

export interface AgentProcess {
  /** which program runs: the real agent CLI, or the stand-in while the CLI has no tunnel */
  program: string
  output(): string
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Whether the agent CLI dials the logs/exec tunnel yet. */
export function cliHasTunnel(): boolean {
  try {
    return readFileSync(new URL(`../../../${CLI}`, import.meta.url), 'utf8').includes('connectTunnel(')
  } catch {
    return false
  }
}

/** Starts a node agent with the process runtime for one node, against the server in `kubeconfig`. */
export function startNodeAgent(kubeconfig: string, name: string): AgentProcess {
  const program = cliHasTunnel() ? CLI : STAND_IN
  const args = program === CLI ? [CLI, '--kubeconfig', kubeconfig, '--name', name, '--runtime', 'process'] : [STAND_IN, '--kubeconfig', kubeconfig, '--name', name]
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let out = ''
  const collect = (c: Buffer) => {
    out = (out + c.toString('utf8')).slice(-OUTPUT_LIMIT)
    if (process.env.EDGEPLANE_E2E_VERBOSE) process.stderr.write(c)
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.once('exit', () => running.delete(child))
  return {
    program,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const inTime = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])
      if (!inTime) {
        child.kill('SIGKILL')
        await exited
      }
    },
  }
}
