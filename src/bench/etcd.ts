import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { HOST } from '../launcher/host'
import { HttpClient } from './http-client'
import { freePort } from './ports'
import { spawnGroup, type GroupProcess } from './procs'
import { progress } from './progress'
import { removeScratchDir, scratchDir } from './scratch'
import { waitUntil } from './wait'

export const INSTALL_HINT =
  'install etcd 3.4 with `sudo apt-get install -y etcd-server` (Debian/Ubuntu) and run the bench again'

export interface EtcdBinary {
  path: string
  version: string
}

export interface Etcd {
  url: string
  process: GroupProcess
  stop(): Promise<void>
}

/**
 * Finds etcd on PATH. When it is missing and `install` is set, installs Debian's etcd-server with
 * apt-get if running as root. Returns a reason instead when etcd cannot be had, so the run goes
 * on and reports the etcd figures as null.
 */
export async function findEtcd(install: boolean): Promise<EtcdBinary | { missing: string }> {
  let path = onPath('etcd')
  if (!path && install) {
    if (process.getuid?.() !== 0) return { missing: `etcd is not on PATH; ${INSTALL_HINT}` }
    progress('etcd is not on PATH; installing Debian package etcd-server with apt-get')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    try {
      await exec('apt-get', ['install', '-y', '--no-install-recommends', 'etcd-server'], {
        env,
        timeoutMs: 300_000,
      })
    } catch {
      // An empty or stale package index is the usual reason; refresh it once and retry.
      try {
        await exec('apt-get', ['update'], { env, timeoutMs: 300_000 })
        await exec('apt-get', ['install', '-y', '--no-install-recommends', 'etcd-server'], {
          env,
          timeoutMs: 300_000,
        })
      } catch (err) {
        return {
          missing: `apt-get install etcd-server failed (${firstLine(err)}); ${INSTALL_HINT}`,
        }
      }
    }
    path = onPath('etcd')
  }
  if (!path) return { missing: `etcd is not on PATH; ${INSTALL_HINT}` }
  try {
    const out = await exec(path, ['--version'], { timeoutMs: 10_000 })
    const version = /etcd Version:\s*(\S+)/.exec(out)?.[1] ?? 'unknown'
    return { path, version }
  } catch (err) {
    return { missing: `${path} --version failed: ${firstLine(err)}` }
  }
}

/** A single-member etcd on loopback ports with a fresh data dir, default durability settings. */
export async function startEtcd(bin: EtcdBinary): Promise<Etcd> {
  const dataDir = await scratchDir('edgeplane-bench-etcd-')
  const [clientPort, peerPort] = [await freePort(), await freePort()]
  const url = `http://${HOST}:${clientPort}`
  const peer = `http://${HOST}:${peerPort}`
  const args = [
    '--name',
    'bench',
    '--data-dir',
    join(dataDir, 'data'),
    '--listen-client-urls',
    url,
    '--advertise-client-urls',
    url,
    '--listen-peer-urls',
    peer,
    '--initial-advertise-peer-urls',
    peer,
    '--initial-cluster',
    `bench=${peer}`,
    '--logger',
    'zap',
    '--log-level',
    'warn',
  ]
  const proc = spawnGroup('etcd', bin.path, args, { cwd: dataDir })
  const stop = async () => {
    await proc.stop()
    await removeScratchDir(dataDir)
  }
  try {
    await waitUntil(
      'etcd',
      async () => {
        const probe = new HttpClient(url, { connections: 1, timeoutMs: 2_000 })
        try {
          const res = await probe.request('GET', '/health')
          return res.status === 200 && /"health":\s*"true"/.test(res.body)
        } finally {
          probe.close()
        }
      },
      { timeoutMs: 30_000, exited: proc.exited, output: proc.output },
    )
    return { url, process: proc, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** The JSON body of an HTTP gateway put: key and value are base64. */
export function etcdPutBody(key: string, value: string): string {
  return JSON.stringify({
    key: Buffer.from(key).toString('base64'),
    value: Buffer.from(value).toString('base64'),
  })
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

function exec(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { env: opts.env, timeout: opts.timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${stderr.trim() || err.message}`))
        else resolve(stdout + stderr)
      },
    )
  })
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!
}
