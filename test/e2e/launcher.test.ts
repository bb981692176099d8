import { execFile } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { readWithSubset, readWithWrangler } from '../../src/launcher/worker-config'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[]
  users: { name: string; user: { token: string } }[]
  contexts: { name: string; context: { cluster: string; user: string; namespace: string } }[]
  'current-context': string
}

describe('local launcher', () => {
  let server: TestServer
  let scratch: string

  beforeAll(async () => {
    server = await startServer()
    scratch = await mkdtemp(join(tmpdir(), 'edgeplane-launcher-test-'))
  })

  afterAll(async () => {
    await server?.dispose()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  it('writes a kubeconfig for https with the server certificate as CA and the admin token', async () => {
    const kc = parse(await readFile(server.kubeconfig, 'utf8')) as Kubeconfig
    expect(kc['current-context']).toBe('edgeplane')
    const context = kc.contexts.find((c) => c.name === 'edgeplane')!.context
    expect(context.namespace).toBe('default')
    const cluster = kc.clusters.find((c) => c.name === context.cluster)!.cluster
    expect(cluster.server).toBe(`https://127.0.0.1:${server.port}`)
    expect(Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8')).toBe(
      server.ca,
    )
    const sans = new X509Certificate(server.ca).subjectAltName ?? ''
    expect(sans).toContain('IP Address:127.0.0.1')
    expect(sans).toContain('DNS:localhost')
    const token = kc.users.find((u) => u.name === context.user)!.user.token
    expect(token).toBe((await readFile(join(server.stateDir, 'admin-token'), 'utf8')).trim())
    expect(token.length).toBeGreaterThanOrEqual(32)
  })

  it('serves kubectl through verified TLS', async () => {
    const res = await kubectl(['version'], { kubeconfig: server.kubeconfig })
    expect(res.stdout).toContain('Server Version')
    expect(res.stderr).not.toMatch(/x509|certificate|Unable to connect/)

    // The same kubeconfig without the CA must fail verification: proof the CA is what kubectl trusts.
    const noCa = join(scratch, 'kubeconfig-no-ca')
    const text = await readFile(server.kubeconfig, 'utf8')
    await writeFile(noCa, text.replace(/^\s*certificate-authority-data:.*\n/m, ''))
    const untrusted = await kubectl(['version'], { kubeconfig: noCa })
    expect(untrusted.code).not.toBe(0)
    expect(untrusted.stderr).toMatch(/x509|certificate/)
  })

  it('answers /readyz over https for the admin token', async () => {
    const res = await server.request('/readyz', { token: server.token })
    expect(res.status).toBe(200)
  })

  it('hands the generated token to the Worker as its admin token', async () => {
    expect((await server.request('/api/v1/namespaces', { token: server.token })).status).toBe(200)
    expect((await server.request('/api/v1/namespaces')).status).toBe(401)
    expect((await server.request('/api/v1/namespaces', { token: `${server.token}x` })).status).toBe(
      401,
    )
  })

  it('fails fast with one clear line when the port is taken', async () => {
    const state = join(scratch, 'second')
    const res = await runLauncher({ EDGEPLANE_PORT: String(server.port), EDGEPLANE_STATE: state })
    expect(res.code).not.toBe(0)
    expect(res.stderr.trim().split('\n')).toEqual([expect.stringMatching(/already in use/)])
  })

  it('reads wrangler.toml into the same bindings wrangler derives', async () => {
    const config = join(REPO_ROOT, 'wrangler.toml')
    const fast = readWithSubset(config)
    const slow = await readWithWrangler(config)
    expect(fast.name).toBe(slow.name)
    expect(fast.crons).toEqual(slow.crons)
    for (const key of [
      'compatibilityDate',
      'compatibilityFlags',
      'bindings',
      'durableObjects',
    ] as const) {
      expect({ [key]: fast.workerOptions[key] }).toEqual({ [key]: slow.workerOptions[key] })
    }
  })

  // Last: it replaces the running process.
  it('keeps objects, certificate, token, port and kubeconfig across a restart on the same state dir', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'survives-restart' },
      data: { k: 'v' },
    })
    const created = await kubectl(['apply', '-f', '-'], {
      kubeconfig: server.kubeconfig,
      stdin: manifest,
    })
    expect(created.stderr).toBe('')
    const before = {
      ca: server.ca,
      token: server.token,
      kubeconfig: await readFile(server.kubeconfig, 'utf8'),
      pid: server.pid(),
    }
    await server.restart()
    expect(server.pid()).not.toBe(before.pid)
    expect(server.ca).toBe(before.ca)
    expect(server.token).toBe(before.token)
    expect(await readFile(server.kubeconfig, 'utf8')).toBe(before.kubeconfig)
    const cm = await kubectlJson(['get', 'configmap', 'survives-restart'], {
      kubeconfig: server.kubeconfig,
    })
    expect(cm.data).toEqual({ k: 'v' })
  })
})

function runLauncher(
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/launcher/main.ts'],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}
