import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { httpGet } from './helpers/http-get'
import { kubectl } from './helpers/kubectl'
import { startKubectl, type KubectlProcess } from './helpers/kubectl-stream'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { serviceAccount, type ServiceAccountCredential } from './helpers/service-account'
import { upgrade } from './helpers/websocket-upgrade'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Streams into a pod on a process node, opened by a ServiceAccount: exec and attach need `create`
// (as kube-apiserver 1.35 checks them), and port-forward is authorized against the live policy.

const NODE = 'e2e-repros-node'
const NS = 'tenant'
let server: TestServer
let agent: AgentProcess
let peeker: ServiceAccountCredential
let forwarder: ServiceAccountCredential
let podPort = 0
let marks = ''
const forwards: KubectlProcess[] = []

const admin = (args: string[]) => kubectl(args, { kubeconfig: server.kubeconfig })
const ok = async (args: string[]) => {
  const res = await admin(args)
  expect(res.stderr).toBe('')
  return res.stdout.trim()
}

/** `kubectl port-forward` as the holder of `kubeconfig`, once it listens or has exited. */
async function portForward(kubeconfig: string, local: number): Promise<KubectlProcess> {
  const pf = startKubectl(['port-forward', 'pod/web', '-n', NS, `${local}:${podPort}`], {
    kubeconfig,
    timeoutMs: 90_000,
  })
  forwards.push(pf)
  await waitFor(() => pf.stdout().includes('Forwarding from') || pf.done(), {
    what: 'kubectl port-forward to listen or exit',
    timeoutMs: 30_000,
  })
  return pf
}

beforeAll(async () => {
  podPort = await freePort()
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  marks = mkdtempSync(join(tmpdir(), 'edgeplane-repros-'))
  chmodSync(marks, 0o777)
  await ok(['create', 'namespace', NS])
  const serve = `require('http').createServer((q, s) => s.end('hello from the pod ' + q.url)).listen(${podPort}, '127.0.0.1')`
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: NS },
    spec: {
      nodeName: NODE,
      containers: [{ name: 'web', image: 'node', command: [process.execPath, '-e', serve] }],
    },
  }
  const created = await kubectl(['create', '-f', '-'], {
    kubeconfig: server.kubeconfig,
    stdin: JSON.stringify(pod),
  })
  expect(created.stdout.trim()).toBe('pod/web created')
  peeker = await serviceAccount(server, NS, 'peeker')
  await ok([
    'create',
    'role',
    'stream-get',
    '-n',
    NS,
    '--verb=get',
    '--resource=pods,pods/exec,pods/attach,pods/portforward',
  ])
  await ok([
    'create',
    'rolebinding',
    'stream-get',
    '-n',
    NS,
    '--role=stream-get',
    `--serviceaccount=${NS}:peeker`,
  ])
  forwarder = await serviceAccount(server, NS, 'forwarder')
  await ok([
    'create',
    'rolebinding',
    'forwarder-edit',
    '-n',
    NS,
    '--clusterrole=edit',
    `--serviceaccount=${NS}:forwarder`,
  ])
  await waitFor(
    async () =>
      (await admin(['get', 'pod', 'web', '-n', NS, '-o', 'jsonpath={.status.phase}'])).stdout ===
      'Running',
    { what: 'pod web Running', timeoutMs: 60_000 },
  ).catch((err) => {
    throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
  })
})

afterAll(async () => {
  for (const pf of forwards) await pf.stop()
  await agent?.stop()
  await server?.dispose()
  if (marks) rmSync(marks, { recursive: true, force: true })
})

describe('exec and attach over WebSocket with only get', () => {
  it('are refused for want of create, run nothing, and the admin still execs', async () => {
    const mark = join(marks, 'peeked')
    const exec = await upgrade(
      server,
      peeker.token,
      `/api/v1/namespaces/${NS}/pods/web/exec?command=touch&command=${encodeURIComponent(mark)}&stdout=1`,
      'v5.channel.k8s.io',
    )
    expect(exec.status).toBe(403)
    expect(JSON.parse(exec.body).message).toContain(
      `User "${peeker.username}" cannot create resource "pods/exec" in API group "" in the namespace "${NS}"`,
    )
    const attach = await upgrade(
      server,
      peeker.token,
      `/api/v1/namespaces/${NS}/pods/web/attach?stdin=1&stdout=1`,
      'v5.channel.k8s.io',
    )
    expect(attach.status).toBe(403)
    expect(JSON.parse(attach.body).message).toContain(
      `User "${peeker.username}" cannot create resource "pods/attach"`,
    )
    const viaKubectl = await kubectl(['exec', 'web', '-n', NS, '--', 'touch', mark], {
      kubeconfig: peeker.kubeconfig,
    })
    expect(viaKubectl.code).not.toBe(0)
    expect(viaKubectl.stderr).toContain(
      `Error from server (Forbidden): pods "web" is forbidden: User "${peeker.username}" cannot create resource "pods/exec"`,
    )
    expect(existsSync(mark)).toBe(false)

    // The same command, run by the admin, leaves the mark: what the refusals above prevented.
    const own = join(marks, 'admin')
    expect(await ok(['exec', 'web', '-n', NS, '--', 'touch', own])).toBe('')
    expect(existsSync(own)).toBe(true)
    expect(existsSync(mark)).toBe(false)
  })
})

describe('port-forward as a ServiceAccount bound to edit', () => {
  it('is allowed as `kubectl auth can-i` says, and forwards to the pod', async () => {
    const canI = (who: ServiceAccountCredential) =>
      admin(['auth', 'can-i', 'create', 'pods/portforward', '-n', NS, `--as=${who.username}`])
    expect((await canI(forwarder)).stdout.trim()).toBe('yes')
    const local = await freePort()
    const pf = await portForward(forwarder.kubeconfig, local)
    expect(pf.done(), pf.stderr()).toBe(false)
    const res = await waitFor(
      () => httpGet('127.0.0.1', local, '/forwarded').catch(() => undefined),
      { what: 'an answer through the forward', timeoutMs: 20_000, intervalMs: 250 },
    )
    expect(res.body.toString()).toBe('hello from the pod /forwarded')
    await pf.stop()
  })

  it('is refused to a ServiceAccount with only get, as `kubectl auth can-i` says', async () => {
    expect(
      (
        await admin([
          'auth',
          'can-i',
          'create',
          'pods/portforward',
          '-n',
          NS,
          `--as=${peeker.username}`,
        ])
      ).stdout.trim(),
    ).toBe('no')
    const pf = await portForward(peeker.kubeconfig, await freePort())
    const res = await pf.finished('a refused port-forward')
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain(
      `error upgrading connection: pods "web" is forbidden: User "${peeker.username}" cannot create resource "pods/portforward"`,
    )
  })
})
