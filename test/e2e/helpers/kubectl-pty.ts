import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KubectlResult } from './kubectl'

const KUBECTL = process.env.KUBECTL || 'kubectl'
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * Runs the real kubectl on a terminal (util-linux `script` gives it a pseudo-terminal) of the given
 * window size, as a user's `kubectl exec -it` runs: kubectl then asks for a TTY and sends the
 * window size on the resize channel. Output is what the terminal showed.
 */
export function kubectlInTerminal(
  args: string[],
  opts: { kubeconfig: string; cols: number; rows: number; timeoutMs?: number },
): Promise<KubectlResult> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-pty-cache-'))
  const command = [KUBECTL, '--kubeconfig', opts.kubeconfig, '--cache-dir', cacheDir, ...args]
    .map(quote)
    .join(' ')
  const timeoutMs = opts.timeoutMs ?? 30_000
  return new Promise((resolve, reject) => {
    const child = spawn(
      'script',
      ['-qec', `stty cols ${opts.cols} rows ${opts.rows}; exec ${command}`, '/dev/null'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    child.stdin.on('error', () => {})
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `kubectl ${args.join(' ')} on a terminal did not finish within ${timeoutMs} ms\noutput: ${stdout}\nstderr: ${stderr}`,
        ),
      )
    }, timeoutMs)
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(new Error(`cannot run script: ${err.message}`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      rmSync(cacheDir, { recursive: true, force: true })
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
  })
}
