import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { findSocket } from '../agent/runtime/docker/socket'

export interface AgentHandle {
  pid: number | undefined
  runtime: AgentRuntime
  stop(): Promise<void>
}

export interface LocalAgentOptions {
  server: string
  caCertPath: string
  stateDir: string
  name: string
  /** the join token, when the node has no credential of its own yet */
  joinToken: string | undefined
  runtime: AgentRuntime
}

const STOP_GRACE_MS = 5_000

/**
 * Starts the node agent next to the server when its source exists. Runs it as
 * `node --import tsx src/agent/cli.ts ...` (what `tsx src/agent/cli.ts` does, minus tsx's extra
 * wrapper process) so the PID we hold is the agent itself. It joins with a join token, never
 * with the admin token, and keeps its credential and its pods' directories in its own state dir.
 */
export function startAgent(repoRoot: string, o: LocalAgentOptions): AgentHandle | undefined {
  const cli = join(repoRoot, 'src', 'agent', 'cli.ts')
  if (!existsSync(cli)) return undefined
  const args = [
    '--import',
    'tsx',
    cli,
    '--server',
    o.server,
    '--ca-cert',
    o.caCertPath,
    '--state-dir',
    o.stateDir,
    '--name',
    o.name,
    '--runtime',
    o.runtime,
  ]
  if (o.joinToken) args.push('--token', o.joinToken)
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' })
  let stopping = false
  child.on('exit', (code, signal) => {
    if (!stopping)
      console.error(
        `edgeplane: node agent exited (${signal ?? `code ${code}`}); the server keeps running`,
      )
  })
  child.on('error', (err) => console.error(`edgeplane: node agent failed to start: ${err.message}`))
  // Last resort when the launcher dies without its shutdown path.
  process.on(
    'exit',
    () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'),
  )
  return {
    pid: child.pid,
    runtime: o.runtime,
    stop: () => {
      stopping = true
      return stopChild(child)
    },
  }
}

export type AgentRuntime = 'process' | 'docker'

/**
 * The local agent's runtime: `EDGEPLANE_AGENT_RUNTIME` when set, else `docker` when a container
 * engine answers on its socket (Docker's, or Podman's service), else `process`.
 */
export async function pickAgentRuntime(
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgentRuntime> {
  const wanted = env.EDGEPLANE_AGENT_RUNTIME
  if (wanted === 'process' || wanted === 'docker') return wanted
  if (wanted)
    throw new Error(`EDGEPLANE_AGENT_RUNTIME must be "process" or "docker", not "${wanted}"`)
  return (await findSocket(undefined, env)) ? 'docker' : 'process'
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
