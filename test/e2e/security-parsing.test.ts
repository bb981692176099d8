import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl } from './helpers/kubectl'
import { createJoinToken, startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { upgrade } from './helpers/websocket-upgrade'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// The attacks of a request read twice, played against the real launcher and a process node: an
// encoded path must be authorized as the path it routes to. Each asserts the refusal, that nothing
// was read, stored or run, and that the next ordinary request works.

const NODE = 'e2e-parsing-node'
let server: TestServer
let agent: AgentProcess
let nobody = ''
let urlReader = ''
let marks = ''

const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const as = (token: string, path: string, method = 'GET') =>
  server.request(path, { token, method, timeoutMs: 30_000 })

beforeAll(async () => {
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  marks = mkdtempSync(join(tmpdir(), 'edgeplane-parsing-'))
  for (const args of [
    ['create', 'namespace', 'other'],
    ['create', 'namespace', 'attacker'],
    ['create', 'secret', 'generic', 'topsecret', '-n', 'other', '--from-literal=password=hunter2'],
    ['create', 'serviceaccount', 'nobody', '-n', 'attacker'],
    ['create', 'serviceaccount', 'url-reader', '-n', 'attacker'],
    ['create', 'clusterrole', 'every-url', '--verb=get', '--non-resource-url=*'],
    [
      'create',
      'clusterrolebinding',
      'every-url',
      '--clusterrole=every-url',
      '--serviceaccount=attacker:url-reader',
    ],
    ['run', 'victim', '-n', 'other', '--image=busybox', '--command', '--', 'sleep', '3600'],
  ]) {
    const res = await run(args)
    expect(res.stderr).toBe('')
  }
  nobody = (await run(['create', 'token', 'nobody', '-n', 'attacker'])).stdout.trim()
  urlReader = (await run(['create', 'token', 'url-reader', '-n', 'attacker'])).stdout.trim()
  await waitFor(
    async () =>
      (await run(['get', 'pod', 'victim', '-n', 'other', '-o', 'jsonpath={.status.phase}']))
        .stdout === 'Running',
    { what: 'the victim pod Running', timeoutMs: 60_000 },
  )
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
  if (marks) rmSync(marks, { recursive: true, force: true })
})

describe('a request is authorized as the path it is served from', () => {
  it("refuses another namespace's Secret through an encoded version, and still serves the owner", async () => {
    for (const path of [
      '/api/v%31/namespaces/other/secrets/topsecret',
      '/api/v1/namespaces/other/secrets/topsecret',
      '/%61pi/v1/namespaces/other/secrets/topsecret',
    ]) {
      const res = await as(nobody, path)
      expect([path, res.status]).toEqual([path, 403])
      expect(res.body).not.toContain('aHVudGVyMg')
    }
    const owner = await run([
      'get',
      'secret',
      'topsecret',
      '-n',
      'other',
      '-o',
      'jsonpath={.data.password}',
    ])
    expect(owner.stdout).toBe('aHVudGVyMg==')
  })

  it('refuses a join token the kube-system Secrets through an encoded version', async () => {
    const join = await createJoinToken(server)
    const res = await as(join, '/api/%761/namespaces/kube-system/secrets')
    expect(res.status).toBe(403)
    expect(res.body).not.toContain('bootstrap-token')
    // The join token still joins, which is all it is for.
    const joined = await server.request('/agent/v1/nodes/e2e-parsing-joined/credential', {
      method: 'POST',
      token: join,
    })
    expect(joined.status).toBe(201)
  })

  it("runs nothing in another namespace's pod through an encoded exec path", async () => {
    const mark = join(marks, 'pwned')
    const res = await upgrade(
      server,
      nobody,
      `/api/v%31/namespaces/other/pods/victim/exec?command=touch&command=${encodeURIComponent(mark)}&stdout=1`,
      'v5.channel.k8s.io',
    )
    expect(res.status).toBe(403)
    expect(existsSync(mark)).toBe(false)
    const ok = await run(['exec', 'victim', '-n', 'other', '--', 'echo', 'still-served'])
    expect(ok.stdout.trim()).toBe('still-served')
  })

  it("keeps a node's tunnel for that node alone: a URL grant opens nothing and the agent keeps serving", async () => {
    for (const path of [`/agent/v1/nodes/${NODE}/tunnel`, `/agent/v%31/nodes/${NODE}/tunnel`]) {
      const res = await upgrade(server, urlReader, path, 'edgeplane.tunnel')
      expect([path, res.status]).toEqual([path, 403])
    }
    expect(agent.output()).not.toContain('replaced by a newer connection')
    const ok = await run(['exec', 'victim', '-n', 'other', '--', 'echo', 'agent-kept'])
    expect(ok.stdout.trim()).toBe('agent-kept')
  })
})
