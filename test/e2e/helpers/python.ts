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

const started = new Set<ChildProcess>()

/** Runs a script to its end; it must exit 0. Returns the values it printed with `out`. */
export function runPython(server: TestServer, namespace: string, script: string, args: string[] = []): Promise<unknown[]> {
  const child = spawn(PYTHON, ['-c', prelude(namespace) + script, server.kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  started.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      clearTimeout(timer)
      started.delete(child)
      if (code !== 0) reject(new Error(`python exited with ${code}:\n${stderr}`))
      else resolve(stdout.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown))
    }),
  )
}

/** Kills every script still running (for afterAll). */
export function killPythons(): void {
  for (const child of started) child.kill('SIGKILL')
}
