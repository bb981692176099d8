import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { defaultNodeName } from '../../src/agent/host-info'
import { bootstrapTokenSecret, newBootstrapToken } from '../../src/apimachinery/bootstrap-token'
import { kubectl } from './helpers/kubectl'
import {
  createJoinToken,
  joinAgent,
  joinNodeToken,
  startAgent,
  type AgentProcess,
} from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Each attack on authentication, played against the real launcher (with its own agent, as
// `npm start` runs it), real agents and the real kubectl: the refusal, that nothing was stored,
// and that the next ordinary request still works.

let server: TestServer
const agents: AgentProcess[] = []
const localNode = defaultNodeName(hostname())
const run = (args: string[]) => kubectl(args, { kubeconfig: server.kubeconfig })
const as = (token: string, path: string, method = 'GET', body?: unknown) =>
  server.request(path, {
    method,
    token,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  })
const mode = async (path: string) => (await stat(path)).mode & 0o777
const nodeReady = async (name: string) => {
  const res = await run([
    'get',
    'node',
    name,
    '-o',
    'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
  ])
  return res.stdout.trim() === 'True'
}

beforeAll(async () => {
  // The process runtime, whatever engine answers: these pods run commands as local processes.
  server = await startServer({ args: ['--agent'], env: { EDGEPLANE_AGENT_RUNTIME: 'process' } })
  await waitFor(() => nodeReady(localNode), {
    what: `the launcher's node ${localNode} Ready`,
    timeoutMs: 60_000,
  })
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('the admin token', () => {
  it('is refused at startup when shorter than 32 characters', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'edgeplane-short-token-'))
    try {
      await writeFile(join(stateDir, 'admin-token'), 'only-thirty-one-characters-long\n')
      await expect(startServer({ stateDir, readyTimeoutMs: 30_000 })).rejects.toThrow(
        /admin token in .* is shorter than 32 characters/,
      )
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })

  it('is kept with the Durable Objects in owner-only directories', async () => {
    for (const dir of [
      server.stateDir,
      join(server.stateDir, 'do'),
      join(server.stateDir, 'agent', 'credentials'),
    ])
      expect([dir, await mode(dir)]).toEqual([dir, 0o700])
    // Passed through, not listed: a pod running as another user reaches its own directory under it.
    expect(await mode(join(server.stateDir, 'agent'))).toBe(0o711)
    expect(await mode(join(server.stateDir, 'admin-token'))).toBe(0o600)
  })
})

describe("the launcher's agent", () => {
  it('joined with a join token and holds only its own node credential, mode 0600', async () => {
    const file = join(server.stateDir, 'agent', 'credentials', `${localNode}.json`)
    expect(await mode(file)).toBe(0o600)
    const stored = JSON.parse(await readFile(file, 'utf8'))
    expect(stored.token).toMatch(/^node\.[a-z0-9]{16}\.[a-z0-9]{32}$/)
    const who = await as(
      stored.token,
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      'POST',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    )
    expect(JSON.parse(who.body).status.userInfo.username).toBe(`system:node:${localNode}`)
    const secret = JSON.parse(
      (await run(['get', 'secret', '-n', 'kube-system', stored.secret.split('/')[1], '-o', 'json']))
        .stdout,
    )
    expect(secret.type).toBe('edgeplane.io/node-token')
    expect(secret.metadata.annotations['edgeplane.io/issued-to']).toMatch(
      /^system:bootstrap:[a-z0-9]{6}$/,
    )
    expect(server.output()).toMatch(/--token [a-z0-9]{6}\.[a-z0-9]{16}/)
    expect(server.output()).not.toContain(server.token)
  })

  it("runs a pod in the pod's own directory, from which the admin token and credentials are not reachable", async () => {
    const script =
      'pwd; for f in .edgeplane/admin-token admin-token ../admin-token .edgeplane/agent/credentials/* credentials/* ../credentials/*; do cat "$f" 2>&1; done; true'
    const created = await run([
      'run',
      'leak',
      '--image=x',
      '--restart=Never',
      '--command',
      '--',
      'sh',
      '-c',
      script,
    ])
    expect(created.code, created.stderr).toBe(0)
    await waitFor(
      async () =>
        (await run(['get', 'pod', 'leak', '-o', 'jsonpath={.status.phase}'])).stdout ===
        'Succeeded',
      { what: 'pod leak Succeeded', timeoutMs: 30_000 },
    )
    const logs = await run(['logs', 'leak'])
    expect(logs.code, logs.stderr).toBe(0)
    const uid = (await run(['get', 'pod', 'leak', '-o', 'jsonpath={.metadata.uid}'])).stdout
    expect(logs.stdout.split('\n')[0]).toBe(join(server.stateDir, 'agent', 'pods', uid))
    expect(logs.stdout).toContain('No such file or directory')
    expect(logs.stdout).not.toContain(server.token)
    expect(logs.stdout).not.toMatch(/node\.[a-z0-9]{16}\./)
    expect((await run(['get', 'ns', 'default'])).code).toBe(0)
  })
})

describe('a pod running as another user (runAsUser, on an agent running as root)', () => {
  it.runIf(process.getuid?.() === 0)(
    'can read neither the admin token nor any credential, by any path',
    async () => {
      const agent = joinAgent(server, await createJoinToken(server), [
        '--name',
        'isolated',
        '--runtime',
        'process',
      ])
      agents.push(agent)
      await waitFor(() => nodeReady('isolated'), { what: 'node isolated Ready', timeoutMs: 30_000 })
      const secrets = [
        join(server.stateDir, 'admin-token'),
        join(server.stateDir, 'kubeconfig'),
        join(agent.stateDir, 'credentials', 'isolated.json'),
        join(server.stateDir, 'agent', 'credentials', `${localNode}.json`),
      ]
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'leak-as-nobody' },
        spec: {
          nodeName: 'isolated',
          restartPolicy: 'Never',
          securityContext: { runAsUser: 65534 },
          containers: [
            {
              name: 'main',
              image: 'x',
              command: [
                'sh',
                '-c',
                `id -u; pwd; for f in ${secrets.join(' ')} ../../credentials/*; do cat "$f" 2>&1; done; true`,
              ],
            },
          ],
        },
      }
      const created = await kubectl(['apply', '-f', '-'], {
        kubeconfig: server.kubeconfig,
        stdin: JSON.stringify(pod),
      })
      expect(created.code, created.stderr).toBe(0)
      await waitFor(
        async () =>
          (await run(['get', 'pod', 'leak-as-nobody', '-o', 'jsonpath={.status.phase}'])).stdout ===
          'Succeeded',
        { what: 'pod leak-as-nobody Succeeded', timeoutMs: 30_000 },
      )
      const logs = (await run(['logs', 'leak-as-nobody'])).stdout
      expect(logs.split('\n')[0]).toBe('65534')
      expect(logs.match(/Permission denied/g)?.length).toBeGreaterThanOrEqual(secrets.length)
      expect(logs).not.toContain(server.token)
      expect(logs).not.toMatch(/node\.[a-z0-9]{16}\./)
    },
  )
})

describe("a pod's environment", () => {
  it('is its spec, the service variables and the base variables, nothing else of the agent', async () => {
    expect((await run(['create', 'service', 'clusterip', 'web', '--tcp=80:8080'])).code).toBe(0)
    const created = await run([
      'run',
      'envcheck',
      '--image=x',
      '--restart=Never',
      '--env=MINE=1',
      '--command',
      '--',
      'env',
    ])
    expect(created.code, created.stderr).toBe(0)
    await waitFor(
      async () =>
        (await run(['get', 'pod', 'envcheck', '-o', 'jsonpath={.status.phase}'])).stdout ===
        'Succeeded',
      { what: 'pod envcheck Succeeded', timeoutMs: 30_000 },
    )
    const ip = (await run(['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout
    const env = Object.fromEntries(
      (await run(['logs', 'envcheck'])).stdout
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    )
    expect(env).toMatchObject({
      MINE: '1',
      HOSTNAME: 'envcheck',
      WEB_SERVICE_HOST: ip,
      WEB_SERVICE_PORT: '80',
      WEB_PORT: `tcp://${ip}:80`,
      WEB_PORT_80_TCP_ADDR: ip,
    })
    // As kubelet, every pod also gets the variables of default/kubernetes, the API's Service.
    expect(env).toMatchObject({
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
    })
    const allowed =
      /^(MINE|HOSTNAME|PATH|HOME|USER|LANG|TMPDIR|TZ|PWD|SHLVL|_|WEB_.*|KUBERNETES_.*)$/
    expect(Object.keys(env).filter((k) => !allowed.test(k))).toEqual([])
  })
})

describe('a node credential', () => {
  let token = ''
  beforeAll(async () => {
    token = await joinNodeToken(server, 'attacker')
  })

  it('cannot create or delete another Node, and the next ordinary request works', async () => {
    const create = await as(token, '/api/v1/nodes', 'POST', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'forged' },
    })
    expect([create.status, JSON.parse(create.body).reason]).toEqual([403, 'Forbidden'])
    const del = await as(token, `/api/v1/nodes/${localNode}`, 'DELETE')
    expect([del.status, JSON.parse(del.body).reason]).toEqual([403, 'Forbidden'])
    expect((await run(['get', 'node', 'forged'])).code).not.toBe(0)
    expect(await nodeReady(localNode)).toBe(true)
    expect((await as(token, '/api/v1/nodes/attacker')).status).toBe(200)
  })

  it('cannot mint a join token or join another node', async () => {
    const forged = newBootstrapToken()
    const mint = await as(
      token,
      '/api/v1/namespaces/kube-system/secrets',
      'POST',
      bootstrapTokenSecret(forged, { ttlSeconds: 600, description: 'forged' }),
    )
    expect(mint.status).toBe(403)
    expect(
      (await run(['get', 'secret', '-n', 'kube-system', `bootstrap-token-${forged.id}`])).code,
    ).not.toBe(0)
    const join = await as(token, '/agent/v1/nodes/sidekick/credential', 'POST')
    expect(join.status).toBe(403)
    expect((await run(['get', 'node', 'sidekick'])).code).not.toBe(0)
    expect((await as(token, '/api/v1/nodes/attacker')).status).toBe(200)
  })

  it('dies at once when its Secret is deleted, and when its Node is deleted', async () => {
    // A live credential reads its own Node (the only one the Node authorizer lets it read); a revoked one is unknown.
    const bySecret = await joinNodeToken(server, 'revoked-secret')
    expect((await as(bySecret, '/api/v1/nodes/revoked-secret')).status).toBe(200)
    const secrets = JSON.parse(
      (
        await run([
          'get',
          'secrets',
          '-n',
          'kube-system',
          '--field-selector',
          'type=edgeplane.io/node-token',
          '-o',
          'json',
        ])
      ).stdout,
    ).items as any[]
    const mine = secrets.filter(
      (s) => Buffer.from(s.data['node-name'], 'base64').toString() === 'revoked-secret',
    )
    expect(mine).toHaveLength(1)
    expect((await run(['delete', 'secret', '-n', 'kube-system', mine[0].metadata.name])).code).toBe(
      0,
    )
    expect((await as(bySecret, '/api/v1/nodes/revoked-secret')).status).toBe(401)

    const byNode = await joinNodeToken(server, 'revoked-node')
    expect((await as(byNode, '/api/v1/nodes/revoked-node')).status).toBe(200)
    expect((await run(['delete', 'node', 'revoked-node'])).code).toBe(0)
    expect((await as(byNode, '/api/v1/nodes/revoked-node')).status).toBe(401)
    expect((await run(['get', 'nodes'])).code).toBe(0)
  })
})

describe('a join token made with kubectl as docs/security.md shows', () => {
  it('joins an agent given --server, --ca-cert and --token, once', async () => {
    const expiration = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const made = await run([
      '-n',
      'kube-system',
      'create',
      'secret',
      'generic',
      'bootstrap-token-docs01',
      '--type',
      'bootstrap.kubernetes.io/token',
      '--from-literal=token-id=docs01',
      '--from-literal=token-secret=0123456789abcdef',
      `--from-literal=expiration=${expiration}`,
      '--from-literal=usage-bootstrap-authentication=true',
      '--from-literal=auth-extra-groups=system:bootstrappers:kubeadm:default-node-token',
    ])
    expect(made.code, made.stderr).toBe(0)
    const agent = joinAgent(server, 'docs01.0123456789abcdef', [
      '--name',
      'by-recipe',
      '--runtime',
      'sim',
      '--lease-seconds',
      '1',
    ])
    agents.push(agent)
    await waitFor(() => nodeReady('by-recipe'), { what: 'node by-recipe Ready', timeoutMs: 30_000 })
    expect(agent.output()).toContain('joined as node by-recipe')
    // The join token itself may do nothing but join.
    expect((await as('docs01.0123456789abcdef', '/api/v1/nodes')).status).toBe(403)
  })
})

describe('an agent started with the admin kubeconfig', () => {
  it('joins once with it, then acts and stores itself only as the node', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'edgeplane-admin-agent-'))
    const args = [
      '--name',
      'from-admin',
      '--runtime',
      'sim',
      '--lease-seconds',
      '1',
      '--state-dir',
      stateDir,
    ]
    try {
      const first = startAgent(server.kubeconfig, args)
      agents.push(first)
      await waitFor(() => nodeReady('from-admin'), {
        what: 'node from-admin Ready',
        timeoutMs: 30_000,
      })
      expect(await readdir(join(stateDir, 'credentials'))).toEqual(['from-admin.json'])
      const stored = JSON.parse(
        await readFile(join(stateDir, 'credentials', 'from-admin.json'), 'utf8'),
      )
      expect(JSON.stringify(stored)).not.toContain(server.token)
      await first.stop()

      // Started again with no token at all, it goes on with the credential it stored...
      const again = joinAgent(server, undefined, args)
      agents.push(again)
      await waitFor(() => again.output().includes('node from-admin is ready'), {
        what: 'the agent ready on its stored credential',
        timeoutMs: 30_000,
      })
      // ...and that credential is all it acts with: revoked, it is refused, not the admin.
      expect(
        (await run(['delete', 'secret', '-n', 'kube-system', stored.secret.split('/')[1]])).code,
      ).toBe(0)
      await waitFor(
        () => /(renewal|updating node from-admin status) failed.*Unauthorized/.test(again.output()),
        { what: 'the revoked agent refused', timeoutMs: 30_000 },
      )
      await again.stop()

      // With neither a credential nor a token, it says how to join.
      const fresh = joinAgent(server, undefined, [
        '--name',
        'nobody',
        '--runtime',
        'sim',
        '--state-dir',
        join(stateDir, 'fresh'),
      ])
      agents.push(fresh)
      await waitFor(() => fresh.child.exitCode !== null || undefined, {
        what: 'the agent without a credential to exit',
        timeoutMs: 30_000,
      })
      expect(fresh.output()).toContain('node nobody has no credential')
      expect((await run(['get', 'node', 'nobody'])).code).not.toBe(0)
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})

describe('rotating the admin token', () => {
  it('keeps every node credential, and retires the old admin token', async () => {
    const node = await joinNodeToken(server, 'survivor')
    const old = server.token
    await server.stop()
    await writeFile(join(server.stateDir, 'admin-token'), `rotated-${'x'.repeat(40)}\n`)
    await server.restart()
    expect(server.token).not.toBe(old)
    expect((await as(old, '/api/v1/nodes')).status).toBe(401)
    expect((await as(node, '/api/v1/nodes/survivor')).status).toBe(200)
    expect((await run(['get', 'nodes'])).code).toBe(0)
    // The launcher's own agent comes back with its stored credential.
    await waitFor(() => nodeReady(localNode), {
      what: `node ${localNode} Ready after the restart`,
      timeoutMs: 60_000,
    })
  })
})
