import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HOST } from '../../launcher/host'
import { HttpClient } from '../http-client'
import { freePort } from '../ports'
import { spawnGroup, type GroupProcess } from '../procs'
import { groupMembers } from '../proc-stats'
import { removeScratchDir, scratchDir } from '../scratch'
import { REPO_ROOT } from '../repo'
import { waitUntil } from '../wait'

export interface FloorServer {
  url: string
  ca: string
  process: GroupProcess
  workerdPids(): number[]
  stop(): Promise<void>
}

/** Starts the floor Worker (main.ts) in its own process group with a fresh state dir. */
export async function startFloor(): Promise<FloorServer> {
  const stateDir = await scratchDir('edgeplane-bench-floor-')
  const port = await freePort()
  const url = `https://${HOST}:${port}`
  const proc = spawnGroup(
    'floor Worker',
    process.execPath,
    ['--import', 'tsx', 'src/bench/floor/main.ts'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, BENCH_FLOOR_PORT: String(port), BENCH_FLOOR_STATE: stateDir },
    },
  )
  const stop = async () => {
    await proc.stop()
    await removeScratchDir(stateDir)
  }
  try {
    let ca = ''
    await waitUntil(
      'the floor Worker',
      async () => {
        ca = await readFile(join(stateDir, 'tls', 'cert.pem'), 'utf8')
        const probe = new HttpClient(url, { ca, connections: 1, timeoutMs: 2_000 })
        try {
          return (await probe.request('GET', '/healthz')).status === 200
        } finally {
          probe.close()
        }
      },
      { timeoutMs: 90_000, exited: proc.exited, output: proc.output },
    )
    return { url, ca, process: proc, workerdPids: () => groupMembers(proc.pid, 'workerd'), stop }
  } catch (err) {
    await stop()
    throw err
  }
}
