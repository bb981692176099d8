import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface KubectlOptions {
  kubeconfig: string
  /** Written to kubectl's stdin (e.g. a manifest for `apply -f -`). */
  stdin?: string
  env?: Record<string, string>
  /** The process is killed, and the call fails, after this long. Default 30 s. */
  timeoutMs?: number
  /** `server` (default): one discovery cache per kubeconfig; `fresh`: a new one for this call. */
  cache?: 'server' | 'fresh'
}

export interface KubectlResult {
  code: number
  stdout: string
  stderr: string
}

const DEFAULT_TIMEOUT_MS = 30_000
// Set KUBECTL to run another binary, e.g. the bundled kubectl.1.32 without the dispatcher.
const KUBECTL = process.env.KUBECTL || 'kubectl'
const cacheDirs = new Map<string, string>()
const freshDirs: string[] = []
process.on('exit', () => {
  for (const dir of [...cacheDirs.values(), ...freshDirs])
    rmSync(dir, { recursive: true, force: true })
})

/**
 * Runs the real kubectl against one server. Each server (kubeconfig) gets its own temporary
 * --cache-dir, so discovery from another server or an earlier run never leaks in.
 */
export function kubectl(args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  const cacheDir = opts.cache === 'fresh' ? freshCacheDir() : serverCacheDir(opts.kubeconfig)
  const fullArgs = ['--kubeconfig', opts.kubeconfig, '--cache-dir', cacheDir, ...args]
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, fullArgs, {
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `kubectl ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      )
    }, timeoutMs)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new Error(`cannot run ${KUBECTL}: ${err.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
    // kubectl may exit without reading its input; that is not an error here.
    child.stdin.on('error', () => {})
    child.stdin.end(opts.stdin ?? '')
  })
}

/** Runs kubectl with `-o json` (unless an output format is given) and parses stdout; fails on a non-zero exit. */
export async function kubectlJson<T = any>(args: string[], opts: KubectlOptions): Promise<T> {
  const hasOutput = args.some(
    (a) => a.startsWith('-o') || a === '--output' || a.startsWith('--output='),
  )
  const res = await kubectl(hasOutput ? args : [...args, '-o', 'json'], opts)
  if (res.code !== 0)
    throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr.trim()}`)
  try {
    return JSON.parse(res.stdout) as T
  } catch {
    throw new Error(`kubectl ${args.join(' ')} printed no JSON: ${res.stdout.slice(0, 500)}`)
  }
}

function serverCacheDir(kubeconfig: string): string {
  let dir = cacheDirs.get(kubeconfig)
  if (!dir) {
    dir = newCacheDir()
    cacheDirs.set(kubeconfig, dir)
  }
  return dir
}

function freshCacheDir(): string {
  const dir = newCacheDir()
  freshDirs.push(dir)
  return dir
}

function newCacheDir(): string {
  return mkdtempSync(join(tmpdir(), 'edgeplane-kubectl-cache-'))
}

/**
 * kubectl bound to one server, whose kubeconfig is read at each call (servers start in
 * beforeAll): `run` returns whatever kubectl did, `ok` fails on a non-zero exit.
 */
export function kubectlOn(kubeconfig: () => string) {
  const run = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: kubeconfig(), stdin })
  const ok = async (args: string[], stdin?: string): Promise<KubectlResult> => {
    const res = await run(args, stdin)
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res
  }
  return { run, ok }
}
