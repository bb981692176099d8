import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KubectlResult } from './kubectl'

export interface KubectlStreamOptions {
  kubeconfig: string
  /** The process is killed after this long, whatever it is doing. Default 30 s. */
  timeoutMs?: number
}

/** A kubectl that keeps running (get -w, wait): its output can be read while it runs. */
export interface KubectlProcess {
  stdout(): string
  stderr(): string
  /** Resolves when the process has exited (by itself, by stop() or by the time limit). */
  exited: Promise<KubectlResult & { killed: boolean }>
  /** True once the process has exited. */
  done(): boolean
  /** Waits for the exit on its own; fails, naming `what`, if the time limit killed it instead. */
  finished(what: string): Promise<KubectlResult>
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<KubectlResult & { killed: boolean }>
}

const KUBECTL = process.env.KUBECTL || 'kubectl'
const live = new Set<ReturnType<typeof spawn>>()
const dirs: string[] = []
// A runner that exits early must not leave watchers behind.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL')
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * Starts kubectl without waiting for it. It gets its own --cache-dir, so its discovery never
 * depends on what other calls cached.
 */
export function startKubectl(args: string[], opts: KubectlStreamOptions): KubectlProcess {
  const cacheDir = mkdtempSync(join(tmpdir(), 'edgeplane-kubectl-stream-'))
  dirs.push(cacheDir)
  const child = spawn(
    KUBECTL,
    ['--kubeconfig', opts.kubeconfig, '--cache-dir', cacheDir, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  live.add(child)
  let stdout = ''
  let stderr = ''
  let killed = false
  let finished = false
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  const timeoutMs = opts.timeoutMs ?? 30_000
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, timeoutMs)
  const exited = new Promise<KubectlResult & { killed: boolean }>((resolve) => {
    const end = (code: number) => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      live.delete(child)
      rmSync(cacheDir, { recursive: true, force: true })
      resolve({ code, stdout, stderr, killed })
    }
    child.on('error', (err) => {
      stderr += `cannot run ${KUBECTL}: ${err.message}`
      end(127)
    })
    child.on('close', (code, signal) => end(code ?? (signal ? 128 : 1)))
  })
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    done: () => finished,
    finished: async (what) => {
      const res = await exited
      if (res.killed)
        throw new Error(
          `kubectl ${args.join(' ')} was still running after ${timeoutMs} ms waiting for ${what}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`,
        )
      return { code: res.code, stdout: res.stdout, stderr: res.stderr }
    },
    stop: async () => {
      if (!finished) {
        killed = true
        child.kill('SIGTERM')
      }
      return exited
    },
  }
}
