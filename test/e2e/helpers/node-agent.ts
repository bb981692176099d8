import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bootstrapTokenSecret, newBootstrapToken } from '../../../src/apimachinery/bootstrap-token'
import type { TestServer } from './server'
import { sleep } from './wait'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const OUTPUT_LIMIT = 64 * 1024

/** A node agent started as `npm run agent` starts it, in its own process group. */
export interface AgentProcess {
  child: ChildProcess
  /** the agent's state dir: its node credentials and its pods' working directories */
  stateDir: string
  /** the address its node ports are bound on (--nodeport-addresses) */
  nodePortAddress: string
  output(): string
  stop(): Promise<void>
}

const running = new Set<AgentProcess>()

/** The agents started and not yet stopped. */
export const runningAgents = (): AgentProcess[] => [...running]

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

/**
 * Starts `src/agent/cli.ts --kubeconfig FILE …args` with a fresh state dir (unless args name one):
 * with an admin kubeconfig, the agent joins with it once and then acts as its node. `stop()` ends
 * it and everything in its group, and removes the fresh state dir.
 */
export function startAgent(
  kubeconfig: string,
  args: string[],
  env: Record<string, string> = {},
): AgentProcess {
  return spawnAgent(['--kubeconfig', kubeconfig, ...args], env)
}

/** Creates a join token (a bootstrap-token Secret) with the admin token, valid `ttlSeconds`. */
export async function createJoinToken(server: TestServer, ttlSeconds = 3600): Promise<string> {
  const token = newBootstrapToken()
  const res = await server.request('/api/v1/namespaces/kube-system/secrets', {
    method: 'POST',
    token: server.token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(bootstrapTokenSecret(token, { ttlSeconds, description: 'e2e' })),
  })
  if (res.status !== 201)
    throw new Error(`creating a join token answered ${res.status}: ${res.body}`)
  return `${token.id}.${token.secret}`
}

/** A node credential for `name`, obtained as an admin joining the node would (this creates the Node). */
export async function joinNodeToken(server: TestServer, name: string): Promise<string> {
  const res = await server.request(`/agent/v1/nodes/${encodeURIComponent(name)}/credential`, {
    method: 'POST',
    token: server.token,
  })
  if (res.status !== 201) throw new Error(`joining ${name} answered ${res.status}: ${res.body}`)
  return (JSON.parse(res.body) as { token: string }).token
}

/** Starts an agent as the README says: `--server URL --ca-cert FILE --token JOIN_TOKEN …args`. */
export function joinAgent(
  server: TestServer,
  joinToken: string | undefined,
  args: string[],
  env: Record<string, string> = {},
): AgentProcess {
  const token = joinToken === undefined ? [] : ['--token', joinToken]
  return spawnAgent(
    [
      '--server',
      server.url,
      '--ca-cert',
      join(server.stateDir, 'tls', 'cert.pem'),
      ...token,
      ...args,
    ],
    env,
  )
}

let loopbacks = 0

/**
 * A loopback address of its own (127.x.y.z; Linux routes all of 127/8 to lo) for an agent's node
 * ports, so that agents of parallel tests on one machine never contend for the same port.
 */
export function loopbackAddress(): string {
  const n = loopbacks++
  return `127.${100 + (process.pid % 150)}.${Math.floor(n / 250) % 250}.${1 + (n % 250)}`
}

function spawnAgent(argv: string[], env: Record<string, string>): AgentProcess {
  if (!argv.includes('--nodeport-addresses'))
    argv = [...argv, '--nodeport-addresses', loopbackAddress()]
  const own = argv.includes('--state-dir')
    ? undefined
    : mkdtempSync(join(tmpdir(), 'edgeplane-agent-'))
  // As the agent makes a state dir of its own: passed through, not listed, for pods running as another user.
  if (own) chmodSync(own, 0o711)
  const stateDir = own ?? argv[argv.indexOf('--state-dir') + 1]!
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/agent/cli.ts', ...argv, ...(own ? ['--state-dir', own] : [])],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
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
    stateDir,
    nodePortAddress: argv[argv.indexOf('--nodeport-addresses') + 1]!,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const inTime = await Promise.race([exited.then(() => true), sleep(6_000).then(() => false)])
        if (!inTime) killGroup(child, 'SIGKILL')
      }
      // Anything the agent left in its group goes too.
      killGroup(child, 'SIGKILL')
      if (own) rmSync(own, { recursive: true, force: true })
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
