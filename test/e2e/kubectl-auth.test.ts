import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { joinNodeToken } from './helpers/node-agent'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'

// kubectl sends TokenRequest, SelfSubjectReview and SelfSubjectAccessReview as protobuf.
describe('kubectl auth whoami|can-i and create token', () => {
  let server: TestServer
  const run = (args: string[]) => kubectl(args, { kubeconfig: server.kubeconfig })
  const as = (token: string, args: string[]) => run([`--token=${token}`, ...args])
  const ok = async (args: string[]) => {
    const res = await run(args)
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res.stdout.trim()
  }
  const whoami = async (token?: string) => {
    const res = token
      ? await as(token, ['auth', 'whoami', '-o', 'json'])
      : await run(['auth', 'whoami', '-o', 'json'])
    if (res.code !== 0) throw new Error(`kubectl auth whoami exited ${res.code}: ${res.stderr}`)
    return JSON.parse(res.stdout).status.userInfo
  }

  beforeAll(async () => {
    server = await startServer()
    await ok(['create', 'serviceaccount', 'bot'])
  })
  afterAll(async () => {
    await server?.dispose()
  })

  it('whoami names the admin as kubeadm does', async () => {
    expect(await whoami()).toEqual({
      username: 'kubernetes-admin',
      groups: ['system:masters', 'system:authenticated'],
    })
    const table = await ok(['auth', 'whoami'])
    expect(table).toMatch(
      /^ATTRIBUTE\s+VALUE\nUsername\s+kubernetes-admin\nGroups\s+\[system:masters system:authenticated\]$/,
    )
  })

  it('whoami with a node token names the node', async () => {
    const token = await joinNodeToken(server, 'n1')
    expect(await whoami(token)).toEqual({
      username: 'system:node:n1',
      groups: ['system:nodes', 'system:authenticated'],
    })
    expect((await as(token, ['auth', 'can-i', 'get', 'pods'])).stdout.trim()).toBe('yes')
    const res = await as(token, ['auth', 'can-i', 'create', 'deployments'])
    expect([res.code, res.stdout.trim()]).toEqual([1, 'no'])
  })

  it('can-i answers yes for the admin', async () => {
    expect(await ok(['auth', 'can-i', 'create', 'deployments'])).toBe('yes')
    expect(await ok(['auth', 'can-i', 'delete', 'pods/x', '-n', 'kube-system'])).toBe('yes')
    expect(await ok(['auth', 'can-i', 'get', '/metrics'])).toBe('yes')
  })

  it('create token issues a service-account token the server accepts as that account', async () => {
    const sa = await kubectlJson(['get', 'serviceaccount', 'bot'], {
      kubeconfig: server.kubeconfig,
    })
    const token = await ok(['create', 'token', 'bot'])
    expect(token.split('.')).toHaveLength(3)
    const user = await whoami(token)
    expect(user).toMatchObject({
      username: 'system:serviceaccount:default:bot',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    })
    expect(user.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(
      /^JTI=[0-9a-f-]{36}$/,
    )
  })

  it('a service account without bindings may only review itself and read discovery', async () => {
    const token = await ok(['create', 'token', 'bot'])
    const denied = await as(token, ['auth', 'can-i', 'list', 'pods'])
    expect([denied.code, denied.stdout.trim()]).toEqual([1, 'no'])
    expect(
      (
        await as(token, ['auth', 'can-i', 'create', 'selfsubjectreviews.authentication.k8s.io'])
      ).stdout.trim(),
    ).toBe('yes')
    expect((await as(token, ['auth', 'can-i', 'get', '/api'])).stdout.trim()).toBe('yes')
    expect((await as(token, ['auth', 'can-i', 'get', '/metrics'])).stdout.trim()).toBe('no')

    const get = await as(token, ['get', 'pods'])
    expect(get.code).not.toBe(0)
    expect(get.stderr).toContain(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:bot" cannot list resource "pods" in API group "" in the namespace "default"',
    )
    const one = await as(token, ['get', 'deployment', 'web', '-n', 'kube-system'])
    expect(one.stderr).toContain(
      'deployments.apps "web" is forbidden: User "system:serviceaccount:default:bot" cannot get resource "deployments" in API group "apps" in the namespace "kube-system"',
    )
  })

  it('can-i --list shows the rules the caller holds', async () => {
    const token = await ok(['create', 'token', 'bot'])
    const res = await as(token, ['auth', 'can-i', '--list'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toMatch(
      /selfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/,
    )
    expect(res.stdout).toMatch(/\[\/api\/\*\]\s+\[\]\s+\[get\]/)
    expect(res.stdout).not.toContain('pods')
  })

  it('create token reports a missing service account and an invalid duration as upstream', async () => {
    const missing = await run(['create', 'token', 'missing'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('serviceaccounts "missing" not found')
    const short = await run(['create', 'token', 'bot', '--duration=1m'])
    expect(short.code).not.toBe(0)
    expect(short.stderr).toContain(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    )
  })

  it('create token --duration sets the expiry', async () => {
    const before = Date.now()
    const req = await kubectlJson(['create', 'token', 'bot', '--duration=2h', '-o', 'json'], {
      kubeconfig: server.kubeconfig,
    })
    expect(req).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'bot', namespace: 'default' },
      spec: { expirationSeconds: 7200 },
    })
    const expiry = Date.parse(req.status.expirationTimestamp)
    expect(expiry).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7200_000)
    expect(expiry).toBeLessThanOrEqual(Date.now() + 7200_000)
  })

  it('refuses a tampered token, and a token whose service account is gone or was recreated', async () => {
    const token = await ok(['create', 'token', 'bot'])
    const [h, p, s] = token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'))
    claims['kubernetes.io'].serviceaccount.name = 'admin'
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`
    const tampered = await as(forged, ['auth', 'whoami'])
    expect([tampered.code, tampered.stderr]).toEqual([1, expect.stringContaining('Unauthorized')])

    await ok(['delete', 'serviceaccount', 'bot'])
    const gone = await as(token, ['auth', 'whoami'])
    expect(gone.stderr).toContain('Unauthorized')
    await ok(['create', 'serviceaccount', 'bot'])
    const recreated = await as(token, ['auth', 'whoami'])
    expect(recreated.stderr).toContain('Unauthorized')
    expect((await whoami(await ok(['create', 'token', 'bot']))).username).toBe(
      'system:serviceaccount:default:bot',
    )
  })

  it('discovery lists the review kinds and the token subresource as create-only', async () => {
    const res = await ok(['api-resources', '--api-group=authorization.k8s.io', '-o', 'wide'])
    expect(res).toMatch(
      /selfsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+false\s+SelfSubjectAccessReview\s+create/,
    )
    expect(await ok(['api-resources', '--api-group=authentication.k8s.io', '-o', 'name'])).toBe(
      'selfsubjectreviews.authentication.k8s.io',
    )
    const core = await server.request('/api/v1', { token: server.token })
    const token = JSON.parse(core.body).resources.find(
      (r: any) => r.name === 'serviceaccounts/token',
    )
    expect(token).toMatchObject({
      kind: 'TokenRequest',
      group: 'authentication.k8s.io',
      version: 'v1',
      verbs: ['create'],
    })
    const get = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      token: server.token,
    })
    expect(get.status).toBe(405)
  })
})
