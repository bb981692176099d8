import { describe, expect, it, beforeAll } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap, joinNode, token as adminToken } from './helpers'

let n1 = ''

/** A request with node n1's token. */
const asNode = (method: string, path: string, body?: unknown, contentType?: string) => api(method, path, body, contentType, { Authorization: `Bearer ${n1}` })

const pod = (name: string, nodeName?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'main', image: 'busybox:1.36' }] },
})
const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } })
const lease = (name: string, namespace = 'kube-node-lease') => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace },
  spec: { holderIdentity: name, leaseDurationSeconds: 40 },
})
const merge = 'application/merge-patch+json'

beforeAll(async () => {
  n1 = await joinNode('n1')
  await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'auth' } })
  for (const [name, nodeName] of [['on-n1', 'n1'], ['on-n2', 'n2'], ['unbound', undefined], ['del-n1', 'n1'], ['del-n2', 'n2']] as const) {
    expect((await api('POST', '/api/v1/namespaces/auth/pods', pod(name, nodeName))).status).toBe(201)
  }
})

describe('node tokens', () => {
  it('authenticate as the node; a tampered or foreign token is 401', async () => {
    expect((await asNode('GET', '/api/v1/nodes')).status).toBe(200)
    const tampered = n1.slice(0, -1) + (n1.endsWith('a') ? 'b' : 'a')
    const res = await api('GET', '/api/v1/nodes', undefined, undefined, { Authorization: `Bearer ${tampered}` })
    expect(res.status).toBe(401)
    expect(res.json.reason).toBe('Unauthorized')
    // A credential of the right shape that was never issued.
    const unknown = `node.${'a'.repeat(16)}.${n1.slice(-32)}`
    expect((await api('GET', '/api/v1/nodes', undefined, undefined, { Authorization: `Bearer ${unknown}` })).status).toBe(401)
  })

  it('read nodes, pods, services, endpoints, configmaps and secrets, and discovery', async () => {
    for (const path of ['/api/v1/nodes', '/api/v1/pods', '/api/v1/namespaces/auth/pods?fieldSelector=spec.nodeName%3Dn1', '/api/v1/services', '/api/v1/endpoints', '/api/v1/namespaces/auth/configmaps', '/api/v1/secrets', '/api/v1/namespaces/auth/pods/on-n2', '/api', '/apis', '/api/v1', '/apis/apps/v1']) {
      expect([path, (await asNode('GET', path)).status]).toEqual([path, 200])
    }
  })

  it('write only their own Node and its status', async () => {
    // Joining created the node's Node; creating it again is the store's AlreadyExists, not a refusal.
    expect((await asNode('POST', '/api/v1/nodes', node('n1'))).status).toBe(409)
    const other = await asNode('POST', '/api/v1/nodes', node('n2'))
    expect(other.status).toBe(403)
    expect(other.json.reason).toBe('Forbidden')
    expect(other.json.message).toBe('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"')
    expect((await asNode('PATCH', '/api/v1/nodes/n1/status', { status: { phase: 'Running' } }, merge)).status).toBe(200)
    expect((await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { a: 'b' } } }, merge)).status).toBe(200)
    await api('POST', '/api/v1/nodes', node('n2'))
    const patchOther = await asNode('PATCH', '/api/v1/nodes/n2/status', { status: { phase: 'Running' } }, merge)
    expect(patchOther.status).toBe(403)
    expect(patchOther.json.message).toBe('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"')
    const del = await asNode('DELETE', '/api/v1/nodes/n1')
    expect(del.status).toBe(403)
    expect(del.json.message).toBe('nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope')
  })

  it('update the status of, and delete, only pods bound to them', async () => {
    expect((await asNode('PATCH', '/api/v1/namespaces/auth/pods/on-n1/status', { status: { phase: 'Running' } }, merge)).status).toBe(200)
    const other = await asNode('PATCH', '/api/v1/namespaces/auth/pods/on-n2/status', { status: { phase: 'Running' } }, merge)
    expect(other.status).toBe(403)
    expect(other.json.message).toBe('pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself')
    const unbound = await asNode('PATCH', '/api/v1/namespaces/auth/pods/unbound/status', { status: { phase: 'Running' } }, merge)
    expect(unbound.status).toBe(403)
    const spec = await asNode('PATCH', '/api/v1/namespaces/auth/pods/on-n1', { metadata: { labels: { a: 'b' } } }, merge)
    expect(spec.status).toBe(403)
    expect(spec.json.message).toBe('pods "on-n1" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "auth"')
    expect(spec.json.details).toEqual({ name: 'on-n1', group: '', kind: 'pods' })
    const delOther = await asNode('DELETE', '/api/v1/namespaces/auth/pods/del-n2')
    expect(delOther.status).toBe(403)
    expect(delOther.json.message).toBe('pods "del-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself')
    // Bound pods are deleted gracefully (202) or at once (200).
    expect([200, 202]).toContain((await asNode('DELETE', '/api/v1/namespaces/auth/pods/del-n1')).status)
    expect((await asNode('DELETE', '/api/v1/namespaces/auth/pods/missing')).status).toBe(404)
    const create = await asNode('POST', '/api/v1/namespaces/auth/pods', pod('mine', 'n1'))
    expect(create.status).toBe(403)
    expect(create.json.message).toBe('pods is forbidden: User "system:node:n1" cannot create resource "pods" in API group "" in the namespace "auth"')
  })

  it('hold only their own Lease in kube-node-lease', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
    const created = await asNode('POST', leases, lease('n1'))
    expect(created.status).toBe(201)
    expect((await asNode('GET', `${leases}/n1`)).status).toBe(200)
    expect((await asNode('PUT', `${leases}/n1`, { ...created.json, spec: { ...created.json.spec, renewTime: '2026-01-01T00:00:00.000000Z' } })).status).toBe(200)
    const other = await asNode('POST', leases, lease('n2'))
    expect(other.status).toBe(403)
    expect(other.json.message).toBe('leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node')
    const elsewhere = await asNode('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease('n1', 'default'))
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.json.message).toBe('leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace')
  })

  it('create events, and nothing else outside their rules', async () => {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'on-n1.1', namespace: 'auth' },
      involvedObject: { kind: 'Pod', namespace: 'auth', name: 'on-n1' },
      reason: 'Started',
      message: 'Started container main',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
    }
    expect((await asNode('POST', '/api/v1/namespaces/auth/events', event)).status).toBe(201)
    const cm = await asNode('POST', '/api/v1/namespaces/auth/configmaps', configMap('x'))
    expect(cm.status).toBe(403)
    expect(cm.json.message).toBe('configmaps is forbidden: User "system:node:n1" cannot create resource "configmaps" in API group "" in the namespace "auth"')
    const deploys = await asNode('GET', '/apis/apps/v1/deployments')
    expect(deploys.status).toBe(403)
    expect(deploys.json.message).toBe('deployments.apps is forbidden: User "system:node:n1" cannot list resource "deployments" in API group "apps" at the cluster scope')
    const logs = await asNode('GET', '/api/v1/namespaces/auth/pods/on-n1/log')
    expect(logs.status).toBe(403)
    expect(logs.json.message).toBe('pods "on-n1" is forbidden: User "system:node:n1" cannot get resource "pods/log" in API group "" in the namespace "auth"')
    const ns = await asNode('DELETE', '/api/v1/namespaces/auth')
    expect(ns.status).toBe(403)
  })

  it('open only their own tunnel; the admin may open any', async () => {
    const other = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n2/tunnel', { headers: { Authorization: `Bearer ${n1}`, Upgrade: 'websocket' } })
    expect(other.status).toBe(403)
    expect(((await other.json()) as any).message).toBe('forbidden: User "system:node:n1" cannot get path "/agent/v1/nodes/n2/tunnel"')
    const noUpgrade = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', { headers: { Authorization: `Bearer ${n1}` } })
    expect(noUpgrade.status).toBe(400)
    await noUpgrade.arrayBuffer()
    for (const [tok, name] of [[n1, 'n1'], [adminToken, 'n3']]) {
      const res = await SELF.fetch(`https://edgeplane.test/agent/v1/nodes/${name}/tunnel`, { headers: { Authorization: `Bearer ${tok}`, Upgrade: 'websocket' } })
      expect(res.status).toBe(101)
      res.webSocket!.accept()
      res.webSocket!.close(1000, 'done')
    }
    const anonymous = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', { headers: { Upgrade: 'websocket' } })
    expect(anonymous.status).toBe(401)
  })
})
