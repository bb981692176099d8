import { execFileSync, execSync } from 'node:child_process'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The release deployed before schema 2 of the kind store (schema 1: no recorded version). */
const PREVIOUS = '521c983'

function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    })
    return true
  } catch {
    return false
  }
}

const objects = ['namespace/upgraded', 'deployment/web', 'lease/upgraded-node', 'secret/kept']

describe('an upgrade from the previous release', () => {
  const servers: TestServer[] = []
  let checkout: string | undefined

  afterAll(async () => {
    for (const s of servers) await s.dispose()
    if (servers[0]) await rm(servers[0].stateDir, { recursive: true, force: true })
    if (checkout) await rm(checkout, { recursive: true, force: true })
  })

  it('keeps every object, resourceVersion, uid and node credential, and new writes continue the resourceVersions', async (ctx) => {
    if (!hasCommit(PREVIOUS))
      return ctx.skip(
        `this clone has no git history: the previous release (commit ${PREVIOUS}) cannot be extracted to write the state the upgrade starts from`,
      )
    checkout = await mkdtemp(join(tmpdir(), 'edgeplane-previous-'))
    execSync(`git archive ${PREVIOUS} | tar -x -C ${JSON.stringify(checkout)}`, { cwd: REPO_ROOT })
    await symlink(join(REPO_ROOT, 'node_modules'), join(checkout, 'node_modules'))
    const stateDir = await mkdtemp(join(tmpdir(), 'edgeplane-upgrade-'))

    const previous = await startServer({ root: checkout, stateDir })
    servers.push(previous)
    const { ok } = kubectlOn(() => previous.kubeconfig)
    await ok(['create', 'namespace', 'upgraded'])
    await ok(['-n', 'upgraded', 'create', 'deployment', 'web', '--image=nginx', '--replicas=2'])
    await ok(['-n', 'upgraded', 'create', 'secret', 'generic', 'kept', '--from-literal=k=v'])
    await ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'upgraded-node', namespace: 'upgraded' },
        spec: { holderIdentity: 'upgraded-node', leaseDurationSeconds: 40 },
      }),
    )
    const joined = await previous.request('/agent/v1/nodes/upgraded-node/credential', {
      method: 'POST',
      token: previous.token,
    })
    expect(joined.status).toBe(201)
    const nodeToken = JSON.parse(joined.body).token as string
    const read = (server: TestServer) =>
      Promise.all(
        objects.map((o) =>
          kubectlJson(['-n', 'upgraded', 'get', o], { kubeconfig: server.kubeconfig }),
        ),
      )
    // The controllers are done with the deployment before the release is stopped.
    await waitFor(
      async () => {
        const [, d] = await read(previous)
        return d.status?.observedGeneration === 1 && d.status?.replicas === 2
      },
      { what: 'the deployment observed', timeoutMs: 60_000 },
    )
    const before = await read(previous)
    await previous.stop()

    const current = await startServer({ stateDir, port: previous.port })
    servers.push(current)
    const after = await read(current)
    for (const [i, o] of before.entries()) {
      expect(after[i].metadata.uid, objects[i]).toBe(o.metadata.uid)
      expect(after[i].metadata.resourceVersion, objects[i]).toBe(o.metadata.resourceVersion)
    }
    expect(after[3].data).toEqual(before[3].data)

    const renewed = await kubectlJson(
      [
        '-n',
        'upgraded',
        'patch',
        'lease',
        'upgraded-node',
        '--type=merge',
        '-p',
        JSON.stringify({ spec: { renewTime: new Date().toISOString().replace('Z', '000Z') } }),
      ],
      { kubeconfig: current.kubeconfig },
    )
    expect(Number(renewed.metadata.resourceVersion)).toBeGreaterThan(
      Number(before[2].metadata.resourceVersion),
    )
    const node = await current.request('/api/v1/nodes/upgraded-node', { token: nodeToken })
    expect(node.status).toBe(200)
  }, 300_000)
})
