import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HOST } from '../launcher/host'
import { HttpClient } from './http-client'
import { freePort } from './ports'
import { spawnGroup, type GroupProcess } from './procs'
import { groupMembers } from './proc-stats'
import { removeScratchDir, scratchDir } from './scratch'
import { REPO_ROOT } from './repo'
import { waitUntil } from './wait'

export interface ControlPlane {
  url: string
  stateDir: string
  token: string
  ca: string
  process: GroupProcess
  /** The workerd processes serving the Worker and its Durable Objects. */
  workerdPids(): number[]
  stop(): Promise<void>
}

const READY_TIMEOUT_MS = 90_000

/**
 * Starts the control plane exactly as `npm run server` does (the launcher under tsx) on a free
 * loopback port with a fresh state dir, in its own process group, and waits for /readyz. `env`
 * adds launcher settings such as EDGEPLANE_NODE_MONITOR_GRACE_PERIOD.
 */
export async function startControlPlane(env: Record<string, string> = {}): Promise<ControlPlane> {
  const stateDir = await scratchDir('edgeplane-bench-')
  const port = await freePort()
  const url = `https://${HOST}:${port}`
  const proc = spawnGroup(
    'control plane',
    process.execPath,
    ['--import', 'tsx', 'src/launcher/main.ts'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        EDGEPLANE_INGRESS_PORT: String(await freePort()),
        ...env,
        EDGEPLANE_PORT: String(port),
        EDGEPLANE_STATE: stateDir,
      },
    },
  )
  const stop = async () => {
    await proc.stop()
    await removeScratchDir(stateDir)
  }
  try {
    let creds: { token: string; ca: string } | undefined
    await waitUntil(
      'the control plane',
      async () => {
        // Read on every poll: the launcher may still be writing them on the first ones.
        creds = await readCredentials(stateDir)
        const probe = new HttpClient(url, {
          ca: creds.ca,
          token: creds.token,
          connections: 1,
          timeoutMs: 2_000,
        })
        try {
          return (await probe.request('GET', '/readyz')).status === 200
        } finally {
          probe.close()
        }
      },
      { timeoutMs: READY_TIMEOUT_MS, exited: proc.exited, output: proc.output },
    )
    return {
      url,
      stateDir,
      ...creds!,
      process: proc,
      workerdPids: () => groupMembers(proc.pid, 'workerd'),
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

async function readCredentials(stateDir: string): Promise<{ token: string; ca: string }> {
  const [token, ca] = await Promise.all([
    readFile(join(stateDir, 'admin-token'), 'utf8'),
    readFile(join(stateDir, 'tls', 'cert.pem'), 'utf8'),
  ])
  return { token: token.trim(), ca }
}
