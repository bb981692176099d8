import { describe, expect, it } from 'vitest'
import { isNodeToken, mintNodeToken, nodeCredentials, nodeNameOf, nodeUser, verifyNodeToken } from '../../src/apimachinery/node-token'
import { attributesOf } from '../../src/api/authorizer-attributes'
import { forbiddenStatus } from '../../src/api/authorize'
import { tunnelNodeName } from '../../src/api/node-authorizer'
import { nodeUserInfo } from '../../src/api/user'

const admin = 'admin-token-for-tests'

describe('node tokens', () => {
  it('are node.<name>.<base64url HMAC-SHA256 of "node:<name>"> and verify statelessly', async () => {
    const token = await mintNodeToken(admin, 'n1')
    const { createHmac } = await import('node:crypto')
    expect(token).toBe(`node.n1.${createHmac('sha256', admin).update('node:n1').digest('base64url')}`)
    expect(await verifyNodeToken(admin, token)).toBe('n1')
    expect(await verifyNodeToken('other', token)).toBeUndefined()
    expect(await verifyNodeToken('', token)).toBeUndefined()
    expect(await mintNodeToken(admin, 'n1')).toBe(token)
  })

  it('carry names with dots, and refuse any change to name or signature', async () => {
    const token = await mintNodeToken(admin, 'worker-1.example.com')
    expect(nodeNameOf(token)).toBe('worker-1.example.com')
    expect(await verifyNodeToken(admin, token)).toBe('worker-1.example.com')
    const sig = token.slice(-43)
    expect(await verifyNodeToken(admin, `node.worker-2.example.com.${sig}`)).toBeUndefined()
    const flipped = sig.startsWith('A') ? `B${sig.slice(1)}` : `A${sig.slice(1)}`
    expect(await verifyNodeToken(admin, `node.worker-1.example.com.${flipped}`)).toBeUndefined()
    for (const bad of ['node..' + sig, 'node.' + sig, 'nodes.n1.' + sig, 'node.n1.' + sig.slice(1), 'node.n1.' + sig + '=', admin, '']) {
      expect([bad, await verifyNodeToken(admin, bad)]).toEqual([bad, undefined])
    }
    expect(isNodeToken(token)).toBe(true)
    expect(isNodeToken(admin)).toBe(false)
  })

  it('nodeCredentials mints from an admin token, keeps a node token of the same node, and refuses another node', async () => {
    const minted = await nodeCredentials(admin, 'n1')
    expect(minted).toEqual({ token: await mintNodeToken(admin, 'n1'), user: nodeUser('n1') })
    expect(await nodeCredentials(minted.token, 'n1')).toEqual(minted)
    await expect(nodeCredentials(minted.token, 'n2')).rejects.toThrow('the kubeconfig holds the token of node "n1", not of "n2"')
    expect(await nodeCredentials(undefined, 'n1')).toEqual({ token: undefined, user: 'system:node:n1' })
  })
})

describe('node authorization attributes', () => {
  const attrs = (method: string, path: string) => attributesOf(new Request(`https://x${path}`, { method }))

  it('derive kube-apiserver verbs', () => {
    expect(attrs('GET', '/api/v1/pods').verb).toBe('list')
    expect(attrs('GET', '/api/v1/namespaces/a/pods?watch=true').verb).toBe('watch')
    expect(attrs('GET', '/api/v1/namespaces/a/pods/p').verb).toBe('get')
    expect(attrs('POST', '/api/v1/nodes').verb).toBe('create')
    expect(attrs('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1').verb).toBe('update')
    expect(attrs('PATCH', '/api/v1/namespaces/a/pods/p/status')).toEqual({ verb: 'patch', group: '', version: 'v1', resource: 'pods', name: 'p', subresource: 'status', namespace: 'a' })
    expect(attrs('GET', '/api/v1/namespaces/a')).toMatchObject({ resource: 'namespaces', name: 'a', namespace: 'a' })
    expect(attrs('DELETE', '/api/v1/namespaces/a/pods').verb).toBe('deletecollection')
    expect(attrs('GET', '/agent/v1/nodes/n1/tunnel')).toEqual({ verb: 'get', path: '/agent/v1/nodes/n1/tunnel' })
    expect(tunnelNodeName('/agent/v1/nodes/n1.example/tunnel')).toBe('n1.example')
    expect(tunnelNodeName('/agent/v1/nodes/n1/other')).toBeUndefined()
  })

  it('word refusals as kube-apiserver does', () => {
    const forbiddenByRbac = (node: string, a: ReturnType<typeof attrs>) => forbiddenStatus(nodeUserInfo(node), a)
    expect(forbiddenByRbac('n1', attrs('PATCH', '/api/v1/namespaces/default/pods/x')).message).toBe(
      'pods "x" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "default"',
    )
    expect(forbiddenByRbac('n1', attrs('GET', '/apis/apps/v1/deployments')).message).toBe(
      'deployments.apps is forbidden: User "system:node:n1" cannot list resource "deployments" in API group "apps" at the cluster scope',
    )
    expect(forbiddenByRbac('n1', attrs('GET', '/api/v1/namespaces/default/pods/x/log')).message).toBe(
      'pods "x" is forbidden: User "system:node:n1" cannot get resource "pods/log" in API group "" in the namespace "default"',
    )
    const path = forbiddenByRbac('n1', attrs('GET', '/metrics'))
    expect(path).toMatchObject({ code: 403, reason: 'Forbidden', message: 'forbidden: User "system:node:n1" cannot get path "/metrics"' })
  })
})
