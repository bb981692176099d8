import { describe, expect, it } from 'vitest'
import { env, SELF } from 'cloudflare:test'
import { gatewayFor } from '../../durable-objects/node-gateway/client'
import { bootstrapTokenSecret } from '../../src/apimachinery/bootstrap-token'
import { buildApp } from '../../src/api/app'
import { api, joinNode, token as adminToken } from './helpers'

const as = (tok: string, method: string, path: string, body?: unknown) =>
  api(method, path, body, undefined, { Authorization: `Bearer ${tok}` })

/** Creates a bootstrap token as an admin would; answers `<id>.<secret>`. */
async function joinToken(
  id: string,
  opts: { ttlSeconds?: number; usage?: string } = {},
): Promise<string> {
  const token = { id, secret: `${id}0123456789`.slice(0, 16) }
  const secret = bootstrapTokenSecret(token, {
    ttlSeconds: opts.ttlSeconds ?? 600,
    description: 'test',
  }) as any
  if (opts.usage) secret.stringData['usage-bootstrap-authentication'] = opts.usage
  expect((await api('POST', '/api/v1/namespaces/kube-system/secrets', secret)).status).toBe(201)
  return `${token.id}.${token.secret}`
}

const credentialSecrets = async (node: string) =>
  (
    (
      await api(
        'GET',
        '/api/v1/namespaces/kube-system/secrets?fieldSelector=type%3Dedgeplane.io%2Fnode-token',
      )
    ).json.items as any[]
  ).filter((s) => atob(s.data['node-name']) === node)

describe('joining with a bootstrap token', () => {
  it('issues the node its own credential, recorded in kube-system and owned by its Node', async () => {
    const join = await joinToken('join01')
    expect(
      (
        await as(join, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'SelfSubjectReview',
        })
      ).json.status.userInfo,
    ).toEqual({
      username: 'system:bootstrap:join01',
      groups: [
        'system:bootstrappers',
        'system:bootstrappers:kubeadm:default-node-token',
        'system:authenticated',
      ],
    })
    const res = await as(join, 'POST', '/agent/v1/nodes/j1/credential')
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({
      kind: 'NodeCredential',
      apiVersion: 'agent.edgeplane.io/v1',
      nodeName: 'j1',
      token: expect.stringMatching(/^node\.[a-z0-9]{16}\.[a-z0-9]{32}$/),
    })
    const node = (await api('GET', '/api/v1/nodes/j1')).json
    const [secret] = await credentialSecrets('j1')
    expect(`kube-system/${secret.metadata.name}`).toBe(res.json.secret)
    expect(secret.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'j1', uid: node.metadata.uid },
    ])
    expect(JSON.stringify(secret)).not.toContain(res.json.token.split('.')[2])
    const who = await as(
      res.json.token,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    )
    expect(who.json.status.userInfo.username).toBe('system:node:j1')
  })

  it('lets a bootstrap token do nothing else', async () => {
    const join = await joinToken('join02')
    for (const [method, path] of [
      ['GET', '/api/v1/nodes'],
      ['GET', '/api/v1/namespaces/kube-system/secrets'],
      ['POST', '/api/v1/nodes'],
      ['GET', '/agent/v1/nodes/j2/tunnel'],
    ] as const) {
      expect([
        path,
        (
          await as(
            join,
            method,
            path,
            method === 'POST'
              ? { apiVersion: 'v1', kind: 'Node', metadata: { name: 'x' } }
              : undefined,
          )
        ).status,
      ]).toEqual([path, 403])
    }
    expect((await api('GET', '/api/v1/nodes/x')).status).toBe(404)
  })

  it('refuses an expired, unusable, unknown or wrong token, and stores nothing', async () => {
    const expired = await joinToken('join03', { ttlSeconds: -1 })
    const unusable = await joinToken('join04', { usage: 'false' })
    const good = await joinToken('join05')
    for (const bad of [
      expired,
      unusable,
      'zzzzzz.0123456789abcdef',
      good.slice(0, -1) + (good.endsWith('a') ? 'b' : 'a'),
    ]) {
      const res = await as(bad, 'POST', '/agent/v1/nodes/j3/credential')
      expect([bad, res.status, res.json.reason]).toEqual([bad, 401, 'Unauthorized'])
    }
    expect((await api('GET', '/api/v1/nodes/j3')).status).toBe(404)
    expect(await credentialSecrets('j3')).toEqual([])
  })

  it('answers 422 for a name that is no node name', async () => {
    const res = await as(await joinToken('join06'), 'POST', '/agent/v1/nodes/Not_A_Name/credential')
    expect(res.status).toBe(422)
    expect(res.json.message).toContain('metadata.name')
  })
})

describe('node credentials', () => {
  it('cannot join, mint tokens, or create and delete other Nodes', async () => {
    const k1 = await joinNode('k1')
    await joinNode('k2')
    for (const path of ['/agent/v1/nodes/k1/credential', '/agent/v1/nodes/k9/credential'])
      expect((await as(k1, 'POST', path)).status).toBe(403)
    const mint = await as(
      k1,
      'POST',
      '/api/v1/namespaces/kube-system/secrets',
      bootstrapTokenSecret(
        { id: 'evil01', secret: '0123456789abcdef' },
        { ttlSeconds: 600, description: 'x' },
      ),
    )
    expect(mint.status).toBe(403)
    expect(
      (await api('GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-evil01')).status,
    ).toBe(404)
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'k1-sa' },
    })
    expect(
      (
        await as(k1, 'POST', '/api/v1/namespaces/default/serviceaccounts/k1-sa/token', {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: {},
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await as(k1, 'POST', '/api/v1/nodes', {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'k3' },
        })
      ).status,
    ).toBe(403)
    expect((await as(k1, 'DELETE', '/api/v1/nodes/k2')).status).toBe(403)
    expect((await api('GET', '/api/v1/nodes/k2')).status).toBe(200)
    expect((await api('GET', '/api/v1/nodes/k3')).status).toBe(404)
  })

  it('die at once with their Secret', async () => {
    const r1 = await joinNode('r1')
    expect((await as(r1, 'GET', '/api/v1/nodes/r1')).status).toBe(200)
    const [secret] = await credentialSecrets('r1')
    expect(
      (await api('DELETE', `/api/v1/namespaces/kube-system/secrets/${secret.metadata.name}`))
        .status,
    ).toBe(200)
    expect((await as(r1, 'GET', '/api/v1/nodes/r1')).status).toBe(401)
    expect((await api('GET', '/api/v1/nodes/r1')).status).toBe(200)
  })

  it('close the tunnel of their node when revoked', async () => {
    for (const [node, revoke] of [
      [
        't1',
        async () =>
          api(
            'DELETE',
            `/api/v1/namespaces/kube-system/secrets/${(await credentialSecrets('t1'))[0].metadata.name}`,
          ),
      ],
      ['t2', async () => api('DELETE', '/api/v1/nodes/t2')],
    ] as const) {
      const res = await SELF.fetch(`https://edgeplane.test/agent/v1/nodes/${node}/tunnel`, {
        headers: { Authorization: `Bearer ${await joinNode(node)}`, Upgrade: 'websocket' },
      })
      expect(res.status).toBe(101)
      const ws = res.webSocket!
      ws.accept()
      const closed = new Promise<number>((resolve) =>
        ws.addEventListener('close', (e) => resolve(e.code)),
      )
      expect(await gatewayFor(env, node).connected()).toBe(true)
      expect((await revoke()).status).toBe(200)
      expect(await closed).toBe(4001)
      expect(await gatewayFor(env, node).connected()).toBe(false)
    }
  })

  it('die at once with their Node, and stay dead when a Node of that name comes back', async () => {
    const r2 = await joinNode('r2')
    expect((await as(r2, 'GET', '/api/v1/nodes/r2')).status).toBe(200)
    expect((await api('DELETE', '/api/v1/nodes/r2')).status).toBe(200)
    expect((await as(r2, 'GET', '/api/v1/nodes')).status).toBe(401)
    expect(
      (
        await api('POST', '/api/v1/nodes', {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'r2' },
        })
      ).status,
    ).toBe(201)
    expect((await as(r2, 'GET', '/api/v1/nodes')).status).toBe(401)
    // A new join for the same name works.
    expect((await as(await joinNode('r2'), 'GET', '/api/v1/nodes/r2')).status).toBe(200)
  })
})

describe('without a usable admin token', () => {
  const app = buildApp()
  const call = (
    bindings: Record<string, string | undefined>,
    path: string,
    headers: Record<string, string> = {},
  ) =>
    app.fetch(new Request(`https://edgeplane.test${path}`, { headers }), {
      ...env,
      ...bindings,
    } as any)

  it('serves only the health paths, and says how to set the token', async () => {
    for (const admin of [undefined, '', 'short-token-of-31-characters-xx']) {
      for (const path of ['/healthz', '/readyz', '/livez'])
        expect([admin, path, (await call({ ADMIN_TOKEN: admin }, path)).status]).toEqual([
          admin,
          path,
          200,
        ])
      for (const path of ['/api/v1/secrets', '/version', '/api', '/agent/v1/nodes/x/credential']) {
        const res = await call(
          { ADMIN_TOKEN: admin },
          path,
          admin ? { Authorization: `Bearer ${admin}` } : {},
        )
        const body = (await res.json()) as any
        expect([admin, path, res.status, body.reason]).toEqual([
          admin,
          path,
          503,
          'ServiceUnavailable',
        ])
        expect(body.message).toContain('wrangler secret put ADMIN_TOKEN')
      }
    }
  })

  it('lets anonymous requests in only with EDGEPLANE_INSECURE_ANONYMOUS=true', async () => {
    expect(
      (
        await call(
          { ADMIN_TOKEN: undefined, EDGEPLANE_INSECURE_ANONYMOUS: 'true' },
          '/api/v1/namespaces',
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await call(
          { ADMIN_TOKEN: undefined, EDGEPLANE_INSECURE_ANONYMOUS: '1' },
          '/api/v1/namespaces',
        )
      ).status,
    ).toBe(503)
    // With a token configured the variable changes nothing.
    expect(
      (await call({ EDGEPLANE_INSECURE_ANONYMOUS: 'true' }, '/api/v1/namespaces')).status,
    ).toBe(401)
    expect(
      (await call({}, '/api/v1/namespaces', { Authorization: `Bearer ${adminToken}` })).status,
    ).toBe(200)
  })
})
