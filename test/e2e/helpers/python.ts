import { spawn, type ChildProcess } from 'node:child_process'
import type { TestServer } from './server'

/**
 * Scripts for the official Python client as Debian packages it (python3-kubernetes), run by
 * /usr/bin/python3 against the launcher with the kubeconfig it writes. Each script starts with a
 * prelude that loads that kubeconfig and defines `out(value)`, which prints one JSON line.
 */

const PYTHON = '/usr/bin/python3'
const RUN_TIMEOUT_MS = 90_000

const prelude = (namespace: string) => `
import json, sys
from kubernetes import client, config, watch
config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
apps = client.AppsV1Api()
NS = ${JSON.stringify(namespace)}
def out(value):
    print(json.dumps(value), flush=True)
`

export interface PythonRun {
  child: ChildProcess
  /** the values printed with `out` so far */
  lines: unknown[]
  done: Promise<{ code: number | null; stderr: string }>
}

const started = new Set<ChildProcess>()

/** Starts a script, the kubeconfig its first argument and `args` the rest; its printed values arrive in `lines` as it runs. */
export function startPython(
  server: TestServer,
  namespace: string,
  script: string,
  args: string[] = [],
): PythonRun {
  const child = spawn(PYTHON, ['-c', prelude(namespace) + script, server.kubeconfig, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.add(child)
  const lines: unknown[] = []
  let partial = ''
  let stderr = ''
  const take = (text: string) => {
    if (text.trim()) lines.push(JSON.parse(text))
  }
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8')
    const parts = partial.split('\n')
    partial = parts.pop()!
    parts.forEach(take)
  })
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      started.delete(child)
      take(partial)
      resolve({ code, stderr })
    }),
  )
  return { child, lines, done }
}

/** Runs a script to its end; it must exit 0. Returns the values it printed with `out`. */
export async function runPython(
  server: TestServer,
  namespace: string,
  script: string,
  args: string[] = [],
): Promise<unknown[]> {
  const run = startPython(server, namespace, script, args)
  const { code, stderr } = await run.done
  if (code !== 0) throw new Error(`python exited with ${code}:\n${stderr}`)
  return run.lines
}

/** Kills every script still running (for afterAll). */
export function killPythons(): void {
  for (const child of started) child.kill('SIGKILL')
}
