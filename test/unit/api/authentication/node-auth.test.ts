import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  formatNodeToken,
  newNodeToken,
  nodeTokenOwner,
  nodeTokenSecret,
  nodeUser,
  parseNodeToken,
} from '../../../../src/apimachinery/node-token'
import {
  bootstrapTokenGroups,
  bootstrapTokenSecret,
  bootstrapUser,
  decodedData,
  parseBootstrapToken,
} from '../../../../src/apimachinery/bootstrap-token'
import { sameSecret } from '../../../../src/apimachinery/secret-compare'
import { attributesOf } from '../../../../src/api/authorization/attributes'
import { forbiddenStatus } from '../../../../src/api/authorization/authorize'
import { nodeAuthorize, nodeOwnPath } from '../../../../src/api/authorization/node-authorizer'
import { nodeUserInfo } from '../../../../src/api/authentication/user'

const at = Date.parse('2026-01-01T00:00:00Z')
/** A Secret as the store keeps it: stringData folded into base64 data. */
const stored = (s: KubeObject): KubeObject => {
  const { stringData, ...rest } = s as KubeObject & { stringData: Record<string, string> }
  return {
    ...rest,
    data: Object.fromEntries(
      Object.entries(stringData).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    ),
  }
}

describe('node credentials', () => {
  it('are node.<16 [a-z0-9]>.<32 [a-z0-9]>, recorded by the hash of their secret', async () => {
    const t = newNodeToken()
    const text = formatNodeToken(t)
    expect(text).toMatch(/^node\.[a-z0-9]{16}\.[a-z0-9]{32}$/)
    expect(parseNodeToken(text)).toEqual(t)
    for (const bad of [
      'node.n1.' + 'A'.repeat(43),
      `node.${t.id}.${t.secret}x`,
      `${t.id}.${t.secret}`,
      '',
    ])
      expect(parseNodeToken(bad)).toBeUndefined()
    const secret = stored(await nodeTokenSecret(t, { name: 'n1', uid: 'u1' }, 'kubernetes-admin'))
    expect(secret.metadata).toMatchObject({
      name: `node-token-${t.id}`,
      namespace: 'kube-system',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u1' }],
    })
    expect(JSON.stringify(secret)).not.toContain(t.secret)
    expect(await nodeTokenOwner(secret, t)).toEqual({ name: 'n1', uid: 'u1' })
    expect(
      await nodeTokenOwner(secret, {
        ...t,
        secret: t.secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      }),
    ).toBeUndefined()
    expect(await nodeTokenOwner({ ...secret, type: 'Opaque' }, t)).toBeUndefined()
    expect(
      await nodeTokenOwner(
        { ...secret, metadata: { ...secret.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } },
        t,
      ),
    ).toBeUndefined()
    expect(nodeUser('n1')).toBe('system:node:n1')
  })
})

describe('bootstrap tokens', () => {
  const token = { id: 'abcdef', secret: '0123456789abcdef' }
  const secret = (ttl: number, extra: Record<string, string> = {}) => {
    const s = stored(bootstrapTokenSecret(token, { ttlSeconds: ttl, description: 'test', now: at }))
    for (const [k, v] of Object.entries(extra))
      (s.data as Record<string, string>)[k] = Buffer.from(v).toString('base64')
    return s
  }

  it("have upstream's shape and groups", async () => {
    expect(parseBootstrapToken('abcdef.0123456789abcdef')).toEqual(token)
    for (const bad of [
      'abcdef.0123456789abcde',
      'ABCDEF.0123456789abcdef',
      'abcdef0123456789abcdef',
    ])
      expect(parseBootstrapToken(bad)).toBeUndefined()
    const s = secret(60)
    expect(s.metadata).toEqual({ name: 'bootstrap-token-abcdef', namespace: 'kube-system' })
    expect(s.type).toBe('bootstrap.kubernetes.io/token')
    expect(decodedData(s)).toMatchObject({
      'token-id': 'abcdef',
      'token-secret': '0123456789abcdef',
      expiration: '2026-01-01T00:01:00Z',
      'usage-bootstrap-authentication': 'true',
    })
    expect(await bootstrapTokenGroups(s, token, at)).toEqual([
      'system:bootstrappers',
      'system:bootstrappers:kubeadm:default-node-token',
    ])
    expect(bootstrapUser('abcdef')).toBe('system:bootstrap:abcdef')
  })

  it('refuse a wrong secret, expiry, a missing usage, and a bad extra group', async () => {
    expect(
      await bootstrapTokenGroups(secret(60), { ...token, secret: '0123456789abcdee' }, at),
    ).toBeUndefined()
    expect(await bootstrapTokenGroups(secret(60), token, at + 60_000)).toBeUndefined()
    expect(
      await bootstrapTokenGroups(secret(60, { expiration: 'soon' }), token, at),
    ).toBeUndefined()
    expect(
      await bootstrapTokenGroups(
        secret(60, { 'usage-bootstrap-authentication': 'false' }),
        token,
        at,
      ),
    ).toBeUndefined()
    expect(
      await bootstrapTokenGroups(secret(60, { 'auth-extra-groups': 'system:masters' }), token, at),
    ).toBeUndefined()
    expect(await bootstrapTokenGroups({ ...secret(60), type: 'Opaque' }, token, at)).toBeUndefined()
  })
})

describe('secret comparison', () => {
  it('is equality, lengths included', async () => {
    expect(await sameSecret('a'.repeat(40), 'a'.repeat(40))).toBe(true)
    expect(await sameSecret('a'.repeat(40), 'a'.repeat(39))).toBe(false)
    expect(await sameSecret('', 'a')).toBe(false)
  })
})

describe('node authorization attributes', () => {
  const attrs = (method: string, path: string) =>
    attributesOf(new Request(`https://x${path}`, { method }))

  it('derive kube-apiserver verbs', () => {
    expect(attrs('GET', '/api/v1/pods').verb).toBe('list')
    expect(attrs('GET', '/api/v1/namespaces/a/pods?watch=true').verb).toBe('watch')
    expect(attrs('GET', '/api/v1/namespaces/a/pods/p').verb).toBe('get')
    expect(attrs('POST', '/api/v1/nodes').verb).toBe('create')
    expect(
      attrs('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1').verb,
    ).toBe('update')
    expect(attrs('PATCH', '/api/v1/namespaces/a/pods/p/status')).toEqual({
      verb: 'patch',
      group: '',
      version: 'v1',
      resource: 'pods',
      name: 'p',
      subresource: 'status',
      namespace: 'a',
    })
    expect(attrs('GET', '/api/v1/namespaces/a')).toMatchObject({
      resource: 'namespaces',
      name: 'a',
      namespace: 'a',
    })
    expect(attrs('DELETE', '/api/v1/namespaces/a/pods').verb).toBe('deletecollection')
    expect(attrs('GET', '/agent/v1/nodes/n1/tunnel')).toEqual({
      verb: 'get',
      path: '/agent/v1/nodes/n1/tunnel',
    })
    expect(nodeOwnPath('/agent/v1/nodes/n1.example/tunnel')).toEqual({
      node: 'n1.example',
      endpoint: 'tunnel',
    })
    expect(nodeOwnPath('/agent/v1/nodes/n1/heartbeat')).toEqual({
      node: 'n1',
      endpoint: 'heartbeat',
    })
    expect(nodeOwnPath('/agent/v1/nodes/n1/other')).toBeUndefined()
  })

  it('let a node read its own Node by name alone, whether or not it exists', () => {
    for (const path of [
      '/api/v1/nodes/n1',
      '/api/v1/nodes/n1/status',
      '/api/v1/nodes?fieldSelector=metadata.name%3Dn1',
      '/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dn1',
    ]) {
      expect([path, nodeAuthorize('n1', attrs('GET', path)).allowed]).toEqual([path, true])
    }
    expect(nodeAuthorize('n1', attrs('GET', '/api/v1/nodes/n9'))).toEqual({
      allowed: false,
      reason: "node 'n1' cannot read 'n9', only its own Node object",
    })
    expect(nodeAuthorize('n1', attrs('GET', '/api/v1/nodes'))).toEqual({
      allowed: false,
      reason: "node 'n1' cannot read all nodes, only its own Node object",
    })
  })

  it('let a node list and watch every Service and Endpoints, as kube-proxy does for its node ports, but not write them', () => {
    for (const path of [
      '/api/v1/services',
      '/api/v1/services?watch=true',
      '/api/v1/endpoints',
      '/api/v1/endpoints?watch=true&resourceVersion=5',
      '/api/v1/namespaces/a/services/s',
    ]) {
      expect([path, nodeAuthorize('n1', attrs('GET', path)).allowed]).toEqual([path, true])
    }
    expect(nodeAuthorize('n1', attrs('PUT', '/api/v1/namespaces/a/endpoints/s')).allowed).toBe(
      false,
    )
    expect(nodeAuthorize('n1', attrs('POST', '/api/v1/namespaces/a/services')).allowed).toBe(false)
  })

  it('word refusals as kube-apiserver does', () => {
    const forbiddenByRbac = (node: string, a: ReturnType<typeof attrs>) =>
      forbiddenStatus(nodeUserInfo(node), a)
    expect(forbiddenByRbac('n1', attrs('PATCH', '/api/v1/namespaces/default/pods/x')).message).toBe(
      'pods "x" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "default"',
    )
    expect(forbiddenByRbac('n1', attrs('GET', '/apis/apps/v1/deployments')).message).toBe(
      'deployments.apps is forbidden: User "system:node:n1" cannot list resource "deployments" in API group "apps" at the cluster scope',
    )
    expect(
      forbiddenByRbac('n1', attrs('GET', '/api/v1/namespaces/default/pods/x/log')).message,
    ).toBe(
      'pods "x" is forbidden: User "system:node:n1" cannot get resource "pods/log" in API group "" in the namespace "default"',
    )
    const path = forbiddenByRbac('n1', attrs('GET', '/metrics'))
    expect(path).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'forbidden: User "system:node:n1" cannot get path "/metrics"',
    })
  })
})
