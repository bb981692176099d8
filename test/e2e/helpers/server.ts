import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { httpsRequestText, type HttpsRequestOptions, type HttpsResult } from './https'
import { sleep } from './wait'
import { assertWithinLimits } from './strict-limits'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const HOST = '127.0.0.1'
const READY_TIMEOUT_MS = 60_000
const STOP_GRACE_MS = 5_000
const OUTPUT_LIMIT = 64 * 1024

export interface StartServerOptions {
  /** Extra environment for the launcher (EDGEPLANE_PORT and EDGEPLANE_STATE are set by the harness). */
  env?: Record<string, string>
  /** Launcher arguments, e.g. ['--agent'] as `npm start` passes. */
  args?: string[]
  /** Reuse a state dir instead of a fresh temporary one. */
  stateDir?: string
  port?: number
  readyTimeoutMs?: number
  /** The checkout whose launcher runs (another release's, say); this repository by default. */
  root?: string
}

export interface TestServer {
  /** https://127.0.0.1:PORT */
  url: string
  port: number
  kubeconfig: string
  stateDir: string
  token: string
  /** The server certificate (PEM), which is also the CA in the kubeconfig. */
  ca: string
  /** PID of the running launcher. */
  pid(): number | undefined
  /** The launcher's combined stdout and stderr so far (the last 64 KiB). */
  output(): string
  /** An https request to this server, verified against its CA; `token: undefined` sends none. */
  request(path: string, opts?: Partial<HttpsRequestOptions>): Promise<HttpsResult>
  /** SIGTERM, then SIGKILL to the launcher's whole process group after 5 s. */
  stop(): Promise<void>
  /** stop(), then start again on the same state dir and port. */
  restart(): Promise<void>
  /** stop() and delete the state dir. */
  dispose(): Promise<void>
}

const running = new Set<ChildProcess>()
/** Servers started and not yet disposed, for the output printed when a test fails (see failure-output.ts). */
const started = new Set<TestServer>()

/** The servers started and not yet disposed. */
export const startedServers = (): TestServer[] => [...started]
// A test runner that exits early must not leave servers behind.
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

/**
 * Starts the launcher exactly as `npm run server` does (tsx running src/launcher/main.ts), on a free
 * loopback port with a fresh temporary state dir, and waits until GET /readyz answers 200.
 *
 * It runs `node --import tsx` rather than `npx tsx`: npm and the tsx CLI each add a process (and
 * together ~1.5 s of startup), and npm does not pass SIGTERM on, which would orphan the server.
 */
export async function startServer(opts: StartServerOptions = {}): Promise<TestServer> {
  const stateDir = opts.stateDir ?? (await mkdtemp(join(tmpdir(), 'edgeplane-e2e-')))
  const port = opts.port ?? (await freePort())
  const ingressPort = await freePort()
  const url = `https://${HOST}:${port}`
  let child: ChildProcess | undefined
  let out = ''

  const launch = async () => {
    out = ''
    const c = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/launcher/main.ts', ...(opts.args ?? [])],
      {
        cwd: opts.root ?? REPO_ROOT,
        // A free ingress port unless the test names one, so parallel launchers never contend for 8080.
        // Strict limits: every invocation is held to the production limits (see assertWithinLimits).
        env: {
          ...process.env,
          EDGEPLANE_INGRESS_PORT: String(ingressPort),
          EDGEPLANE_STRICT_LIMITS: 'true',
          ...opts.env,
          EDGEPLANE_PORT: String(port),
          EDGEPLANE_STATE: stateDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a forced stop also reaches workerd and any agent.
        detached: true,
      },
    )
    const collect = (chunk: Buffer) => {
      out = (out + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)
      if (process.env.EDGEPLANE_E2E_VERBOSE) process.stderr.write(chunk)
    }
    c.stdout?.on('data', collect)
    c.stderr?.on('data', collect)
    c.on('exit', () => running.delete(c))
    running.add(c)
    child = c
    await waitUntilReady(c, url, stateDir, opts.readyTimeoutMs ?? READY_TIMEOUT_MS, () => out)
  }

  const server: TestServer = {
    url,
    port,
    stateDir,
    kubeconfig: join(stateDir, 'kubeconfig'),
    token: '',
    ca: '',
    pid: () => child?.pid,
    output: () => out,
    request: (path, o = {}) => httpsRequestText(url + path, { ...o, ca: o.ca ?? server.ca }),
    stop: async () => {
      const breaches = child ? await assertWithinLimits(server) : undefined
      if (child) await stopChild(child)
      child = undefined
      if (breaches) throw new Error(breaches)
    },
    restart: async () => {
      await server.stop()
      await launch()
      Object.assign(server, await readCredentials(stateDir))
    },
    dispose: async () => {
      started.delete(server)
      await server.stop()
      if (!opts.stateDir) await rm(stateDir, { recursive: true, force: true })
    },
  }

  started.add(server)
  try {
    await launch()
  } catch (err) {
    await server.dispose()
    throw err
  }
  return Object.assign(server, await readCredentials(stateDir))
}

async function readCredentials(stateDir: string): Promise<{ token: string; ca: string }> {
  const [token, ca] = await Promise.all([
    readFile(join(stateDir, 'admin-token'), 'utf8'),
    readFile(join(stateDir, 'tls', 'cert.pem'), 'utf8'),
  ])
  return { token: token.trim(), ca }
}

async function waitUntilReady(
  child: ChildProcess,
  url: string,
  stateDir: string,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer yet'
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `edgeplane launcher exited (${child.signalCode ?? `code ${child.exitCode}`}) before it was ready. Its output:\n${output()}`,
      )
    }
    try {
      const { token, ca } = await readCredentials(stateDir)
      const res = await httpsRequestText(`${url}/readyz`, { ca, token, timeoutMs: 2_000 })
      if (res.status === 200) return
      last = `GET /readyz answered ${res.status}: ${res.body.slice(0, 200)}`
    } catch (err) {
      last = err instanceof Error ? err.message : String(err)
    }
    if (Date.now() > deadline) {
      await stopChild(child)
      throw new Error(
        `edgeplane launcher did not answer GET ${url}/readyz with 200 within ${timeoutMs} ms (last: ${last}). Its output:\n${output()}`,
      )
    }
    await sleep(100)
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const inTime = await Promise.race([
      exited.then(() => true),
      sleep(STOP_GRACE_MS).then(() => false),
    ])
    if (!inTime) {
      killGroup(child, 'SIGKILL')
      await exited
    }
  }
  // Whatever the launcher left in its group (it should be nothing) goes too.
  killGroup(child, 'SIGKILL')
  running.delete(child)
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // The group is already gone.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen({ host: HOST, port: 0 }, () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
