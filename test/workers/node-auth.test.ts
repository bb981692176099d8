import { describe, expect, it, beforeAll } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap, joinNode, token as adminToken } from './helpers'
import { podManifest } from '../helpers'

let n1 = ''

/** The answer to a WebSocket watch with node n1's token (a socket it opens is closed at once). */
async function watchStatus(path: string): Promise<number> {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    headers: { Authorization: `Bearer ${n1}`, Upgrade: 'websocket' },
  })
  if (res.webSocket) {
    res.webSocket.accept()
    res.webSocket.close(1000, 'done')
  } else await res.arrayBuffer()
  return res.status
}

/** A request with node n1's token. */
const asNode = (method: string, path: string, body?: unknown, contentType?: string) =>
  api(method, path, body, contentType, { Authorization: `Bearer ${n1}` })

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
  await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'auth' },
  })
  for (const [name, nodeName] of [
    ['on-n1', 'n1'],
    ['on-n2', 'n2'],
    ['unbound', undefined],
    ['del-n1', 'n1'],
    ['del-n2', 'n2'],
  ] as const) {
    expect(
      (await api('POST', '/api/v1/namespaces/auth/pods', podManifest(name, { nodeName }))).status,
    ).toBe(201)
  }
})

describe('node tokens', () => {
  it('authenticate as the node; a tampered or foreign token is 401', async () => {
    expect((await asNode('GET', '/api/v1/namespaces/auth/pods/on-n1')).status).toBe(200)
    const tampered = n1.slice(0, -1) + (n1.endsWith('a') ? 'b' : 'a')
    const res = await api('GET', '/api/v1/nodes', undefined, undefined, {
      Authorization: `Bearer ${tampered}`,
    })
    expect(res.status).toBe(401)
    expect(res.json.reason).toBe('Unauthorized')
    // A credential of the right shape that was never issued.
    const unknown = `node.${'a'.repeat(16)}.${n1.slice(-32)}`
    expect(
      (
        await api('GET', '/api/v1/nodes', undefined, undefined, {
          Authorization: `Bearer ${unknown}`,
        })
      ).status,
    ).toBe(401)
  })

  it('read their pods, any pod by name, services, endpoints and discovery', async () => {
    for (const path of [
      '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1',
      '/api/v1/namespaces/auth/pods?fieldSelector=spec.nodeName%3D%3Dn1,status.phase%21%3DFailed',
      '/api/v1/namespaces/auth/pods/on-n2',
      '/api/v1/namespaces/auth/pods?fieldSelector=metadata.name%3Don-n1',
      '/api/v1/services',
      '/api/v1/endpoints',
      '/api',
      '/apis',
      '/api/v1',
      '/apis/apps/v1',
    ]) {
      expect([path, (await asNode('GET', path)).status]).toEqual([path, 200])
    }
  })

  it('list and watch pods only with their own spec.nodeName, as the Node authorizer', async () => {
    for (const path of [
      '/api/v1/pods',
      '/api/v1/namespaces/auth/pods',
      '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2',
      '/api/v1/pods?fieldSelector=spec.nodeName%21%3Dn1',
      '/api/v1/pods?fieldSelector=spec.host%3Dn1',
      '/api/v1/pods?watch=true',
      '/api/v1/pods?labelSelector=spec.nodeName%3Dn1',
    ]) {
      const res = await asNode('GET', path)
      expect([path, res.status]).toEqual([path, 403])
    }
    const all = await asNode('GET', '/api/v1/pods')
    expect(all.json.message).toBe(
      'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    )
    const watch = await asNode('GET', '/api/v1/namespaces/auth/pods?watch=true')
    expect(watch.json.message).toBe(
      'pods is forbidden: User "system:node:n1" cannot watch resource "pods" in API group "" in the namespace "auth": can only list/watch pods with spec.nodeName field selector',
    )
    // One pod by name is listed only when it is bound to the node.
    const other = await asNode(
      'GET',
      '/api/v1/namespaces/auth/pods?fieldSelector=metadata.name%3Don-n2',
    )
    expect(other.status).toBe(403)
    expect(other.json.message).toBe(
      `pods "on-n2" is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" in the namespace "auth": no relationship found between node 'n1' and this object`,
    )
  })

  it('read only their own Node', async () => {
    await api('POST', '/api/v1/nodes', node('n9'))
    const all = await asNode('GET', '/api/v1/nodes')
    expect(all.status).toBe(403)
    expect(all.json.message).toBe(
      `nodes is forbidden: User "system:node:n1" cannot list resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read all nodes, only its own Node object`,
    )
    const other = await asNode('GET', '/api/v1/nodes/n9')
    expect(other.json.message).toBe(
      `nodes "n9" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node 'n1' cannot read 'n9', only its own Node object`,
    )
    // Its own: the bare Node joining created, before its agent registers (as kubelet reads it first),
    // its status, and by a single-object list.
    expect((await asNode('GET', '/api/v1/nodes/n1')).status).toBe(200)
    expect((await asNode('GET', '/api/v1/nodes/n1/status')).status).toBe(200)
    expect((await asNode('GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1')).status).toBe(200)
    // And watched so, over a WebSocket, as the agent follows its Node; never another's.
    expect(await watchStatus('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dn1')).toBe(101)
    expect(await watchStatus('/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dn9')).toBe(403)
    // Nor another Node's status.
    expect((await asNode('GET', '/api/v1/nodes/n9/status')).status).toBe(403)
  })

  it('read a secret or configmap only while a pod bound to them references it', async () => {
    await api('POST', '/api/v1/namespaces/auth/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds' },
      stringData: { k: 'v' },
    })
    await api('POST', '/api/v1/namespaces/auth/configmaps', configMap('settings'))
    const secret = await asNode('GET', '/api/v1/namespaces/auth/secrets/creds')
    expect(secret.status).toBe(403)
    expect(secret.json).toMatchObject({
      reason: 'Forbidden',
      details: { name: 'creds', kind: 'secrets' },
    })
    expect(secret.json.message).toBe(
      `secrets "creds" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "auth": no relationship found between node 'n1' and this object`,
    )
    const user = {
      ...podManifest('uses-creds', { nodeName: 'n1' }),
      spec: {
        nodeName: 'n1',
        containers: [
          {
            name: 'main',
            image: 'busybox',
            envFrom: [{ secretRef: { name: 'creds' } }, { configMapRef: { name: 'settings' } }],
          },
        ],
      },
    }
    expect((await api('POST', '/api/v1/namespaces/auth/pods', user)).status).toBe(201)
    expect((await asNode('GET', '/api/v1/namespaces/auth/secrets/creds')).json.data).toEqual({
      k: 'dg==',
    })
    expect((await asNode('GET', '/api/v1/namespaces/auth/configmaps/settings')).status).toBe(200)
    // The kubelet's single-object list and watch of a referenced object.
    expect(
      (await asNode('GET', '/api/v1/namespaces/auth/secrets?fieldSelector=metadata.name%3Dcreds'))
        .json.items,
    ).toHaveLength(1)
    // The same over a WebSocket watch, as the agent watches.
    expect(
      await watchStatus(
        '/api/v1/namespaces/auth/secrets?watch=true&fieldSelector=metadata.name%3Dcreds',
      ),
    ).toBe(101)
    expect(await watchStatus('/api/v1/configmaps?watch=true')).toBe(403)
    // Never all of them, nor an unreferenced one, nor writes.
    for (const [method, path, why] of [
      ['GET', '/api/v1/secrets', 'can only read namespaced object of this type'],
      ['GET', '/api/v1/namespaces/auth/secrets', 'No Object name found'],
      ['GET', '/api/v1/namespaces/auth/configmaps?watch=true', 'No Object name found'],
      [
        'GET',
        '/api/v1/namespaces/auth/secrets?fieldSelector=metadata.name%3Dother',
        `no relationship found between node 'n1' and this object`,
      ],
      ['DELETE', '/api/v1/namespaces/auth/secrets/creds', 'can only read resources of this type'],
    ] as const) {
      const res = await asNode(method, path)
      expect([path, res.status, res.json.message]).toEqual([
        path,
        403,
        expect.stringMatching(new RegExp(`: ${why}$`)),
      ])
    }
    expect(
      (await api('DELETE', '/api/v1/namespaces/auth/pods/uses-creds?gracePeriodSeconds=0')).status,
    ).toBe(200)
    expect((await asNode('GET', '/api/v1/namespaces/auth/secrets/creds')).status).toBe(403)
    expect((await asNode('GET', '/api/v1/namespaces/auth/configmaps/settings')).status).toBe(403)
  })

  it('set only the kubelet labels of kubernetes.io and k8s.io, and never node-restriction ones', async () => {
    const labelled = {
      ...node('n1'),
      metadata: {
        name: 'n1',
        labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'n1' },
      },
    }
    // Registering with a label it may not set is refused as such, though joining created the Node,
    // and the Node keeps no label.
    const create = await asNode('POST', '/api/v1/nodes', labelled)
    expect(create.status).toBe(403)
    expect(create.json.message).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-role.kubernetes.io/control-plane',
    )
    expect((await api('GET', '/api/v1/nodes/n1')).json.metadata.labels ?? {}).toEqual({})
    // With labels it may set, registering meets the Node joining created (AlreadyExists, not a
    // refusal), and the labels go on by patch, as the agent registers on an existing Node.
    const allowed = {
      'kubernetes.io/hostname': 'n1',
      'kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'z',
      'node.kubernetes.io/instance-type': 'm',
      'x.kubelet.kubernetes.io/y': '1',
      'example.com/team': 'a',
    }
    expect(
      (
        await asNode('POST', '/api/v1/nodes', {
          ...node('n1'),
          metadata: { name: 'n1', labels: allowed },
        })
      ).status,
    ).toBe(409)
    const ok = await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: allowed } }, merge)
    expect(ok.status).toBe(200)
    expect(ok.json.metadata.labels).toEqual(allowed)
    for (const label of [
      'node-restriction.kubernetes.io/dedicated',
      'foo.node-restriction.kubernetes.io/x',
      'kubernetes.io/role',
      'example.k8s.io/x',
    ]) {
      const patch = await asNode(
        'PATCH',
        '/api/v1/nodes/n1',
        { metadata: { labels: { [label]: 'true' } } },
        merge,
      )
      expect([label, patch.status, patch.json.message]).toEqual([
        label,
        403,
        `nodes "n1" is forbidden: is not allowed to modify labels: ${label}`,
      ])
    }
    // Nor may it remove one the admin set, nor change its taints.
    expect(
      (
        await api(
          'PATCH',
          '/api/v1/nodes/n1',
          {
            metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'a' } },
            spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] },
          },
          merge,
        )
      ).status,
    ).toBe(200)
    const remove = await asNode(
      'PATCH',
      '/api/v1/nodes/n1',
      { metadata: { labels: { 'node-restriction.kubernetes.io/pool': null } } },
      merge,
    )
    expect(remove.json.message).toBe(
      'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool',
    )
    const taints = await asNode('PATCH', '/api/v1/nodes/n1', { spec: { taints: [] } }, merge)
    expect(taints.json.message).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    )
    const current = (await api('GET', '/api/v1/nodes/n1')).json
    expect(current.metadata.labels['node-restriction.kubernetes.io/pool']).toBe('a')
    expect(current.spec.taints).toEqual([{ key: 'k', effect: 'NoSchedule' }])
    const put = await asNode('PUT', '/api/v1/nodes/n1', {
      ...current,
      metadata: {
        ...current.metadata,
        labels: { ...current.metadata.labels, 'kubernetes.io/role': 'x' },
      },
    })
    expect(put.status).toBe(403)
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/nodes/n1',
          { metadata: { labels: { 'kubernetes.io/arch': 'arm64', team: 'b' } } },
          merge,
        )
      ).status,
    ).toBe(200)
    // The admin takes its label and taint back (deleting the Node would revoke n1's credential).
    expect(
      (
        await api(
          'PATCH',
          '/api/v1/nodes/n1',
          {
            metadata: { labels: { 'node-restriction.kubernetes.io/pool': null } },
            spec: { taints: null },
          },
          merge,
        )
      ).status,
    ).toBe(200)
  })

  it('write only their own Node and its status', async () => {
    // Joining created the node's Node; creating it again is the store's AlreadyExists, not a refusal.
    expect((await asNode('POST', '/api/v1/nodes', node('n1'))).status).toBe(409)
    const other = await asNode('POST', '/api/v1/nodes', node('n2'))
    expect(other.status).toBe(403)
    expect(other.json.reason).toBe('Forbidden')
    expect(other.json.message).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    )
    expect(
      (await asNode('PATCH', '/api/v1/nodes/n1/status', { status: { phase: 'Running' } }, merge))
        .status,
    ).toBe(200)
    expect(
      (await asNode('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { a: 'b' } } }, merge))
        .status,
    ).toBe(200)
    await api('POST', '/api/v1/nodes', node('n2'))
    const patchOther = await asNode(
      'PATCH',
      '/api/v1/nodes/n2/status',
      { status: { phase: 'Running' } },
      merge,
    )
    expect(patchOther.status).toBe(403)
    expect(patchOther.json.message).toBe(
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    )
    const del = await asNode('DELETE', '/api/v1/nodes/n1')
    expect(del.status).toBe(403)
    expect(del.json.message).toBe(
      'nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope',
    )
  })

  it('update the status of, and delete, only pods bound to them', async () => {
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/namespaces/auth/pods/on-n1/status',
          { status: { phase: 'Running' } },
          merge,
        )
      ).status,
    ).toBe(200)
    const other = await asNode(
      'PATCH',
      '/api/v1/namespaces/auth/pods/on-n2/status',
      { status: { phase: 'Running' } },
      merge,
    )
    expect(other.status).toBe(403)
    expect(other.json.message).toBe(
      'pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    )
    const unbound = await asNode(
      'PATCH',
      '/api/v1/namespaces/auth/pods/unbound/status',
      { status: { phase: 'Running' } },
      merge,
    )
    expect(unbound.status).toBe(403)
    const spec = await asNode(
      'PATCH',
      '/api/v1/namespaces/auth/pods/on-n1',
      { metadata: { labels: { a: 'b' } } },
      merge,
    )
    expect(spec.status).toBe(403)
    expect(spec.json.message).toBe(
      'pods "on-n1" is forbidden: User "system:node:n1" cannot patch resource "pods" in API group "" in the namespace "auth"',
    )
    expect(spec.json.details).toEqual({ name: 'on-n1', kind: 'pods' })
    const delOther = await asNode('DELETE', '/api/v1/namespaces/auth/pods/del-n2')
    expect(delOther.status).toBe(403)
    expect(delOther.json.message).toBe(
      'pods "del-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
    )
    // Bound pods are deleted gracefully (202) or at once (200).
    expect([200, 202]).toContain(
      (await asNode('DELETE', '/api/v1/namespaces/auth/pods/del-n1')).status,
    )
    expect((await asNode('DELETE', '/api/v1/namespaces/auth/pods/missing')).status).toBe(404)
    const create = await asNode(
      'POST',
      '/api/v1/namespaces/auth/pods',
      podManifest('mine', { nodeName: 'n1' }),
    )
    expect(create.status).toBe(403)
    expect(create.json.message).toBe(
      'pods is forbidden: User "system:node:n1" cannot create resource "pods" in API group "" in the namespace "auth"',
    )
  })

  it('hold only their own Lease in kube-node-lease', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
    const created = await asNode('POST', leases, lease('n1'))
    expect(created.status).toBe(201)
    expect((await asNode('GET', `${leases}/n1`)).status).toBe(200)
    expect(
      (
        await asNode('PUT', `${leases}/n1`, {
          ...created.json,
          spec: { ...created.json.spec, renewTime: '2026-01-01T00:00:00.000000Z' },
        })
      ).status,
    ).toBe(200)
    const other = await asNode('POST', leases, lease('n2'))
    expect(other.status).toBe(403)
    expect(other.json.message).toBe(
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    )
    const elsewhere = await asNode(
      'POST',
      '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      lease('n1', 'default'),
    )
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.json.message).toBe(
      'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
    )
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
    expect(cm.json.message).toBe(
      'configmaps is forbidden: User "system:node:n1" cannot create resource "configmaps" in API group "" in the namespace "auth": can only read resources of this type',
    )
    const deploys = await asNode('GET', '/apis/apps/v1/deployments')
    expect(deploys.status).toBe(403)
    expect(deploys.json.message).toBe(
      'deployments.apps is forbidden: User "system:node:n1" cannot list resource "deployments" in API group "apps" at the cluster scope',
    )
    const logs = await asNode('GET', '/api/v1/namespaces/auth/pods/on-n1/log')
    expect(logs.status).toBe(403)
    expect(logs.json.message).toBe(
      'pods "on-n1" is forbidden: User "system:node:n1" cannot get resource "pods/log" in API group "" in the namespace "auth"',
    )
    const ns = await asNode('DELETE', '/api/v1/namespaces/auth')
    expect(ns.status).toBe(403)
  })

  it('write events only about themselves and pods bound to them', async () => {
    const event = (name: string, involvedObject: Record<string, string>, namespace = 'auth') => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject,
      reason: 'Started',
      message: 'm',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
    })
    const events = (ns = 'auth') => `/api/v1/namespaces/${ns}/events`
    expect(
      (
        await asNode(
          'POST',
          events('default'),
          event('n1.1', { kind: 'Node', name: 'n1', uid: 'n1' }, 'default'),
        )
      ).status,
    ).toBe(201)
    expect(
      (
        await asNode(
          'POST',
          events(),
          event('own.1', { kind: 'Pod', namespace: 'auth', name: 'on-n1' }),
        )
      ).status,
    ).toBe(201)
    for (const [name, ref, ns] of [
      ['n2.1', { kind: 'Node', name: 'n2' }, 'default'],
      ['other.1', { kind: 'Pod', namespace: 'auth', name: 'on-n2' }, 'auth'],
      ['unbound.1', { kind: 'Pod', namespace: 'auth', name: 'unbound' }, 'auth'],
      ['missing.1', { kind: 'Pod', namespace: 'auth', name: 'missing' }, 'auth'],
      ['deploy.1', { kind: 'Deployment', namespace: 'auth', name: 'on-n1' }, 'auth'],
    ] as const) {
      const res = await asNode('POST', events(ns), event(name, ref, ns))
      expect([name, res.status, res.json.message]).toEqual([
        name,
        403,
        `events "${name}" is forbidden: node "n1" can only create events about itself or pods bound to it`,
      ])
      expect((await api('GET', `${events(ns)}/${name}`)).status).toBe(404)
    }
    // A body that is not an event is a 400, as for anyone.
    expect((await asNode('POST', events(), '{"kind":')).status).toBe(400)
    // Patches and updates: of its own events only, and never to make them about something else.
    expect((await asNode('PATCH', `${events()}/own.1`, { count: 2 }, merge)).status).toBe(200)
    const retarget = await asNode(
      'PATCH',
      `${events()}/own.1`,
      { involvedObject: { name: 'on-n2' } },
      merge,
    )
    expect(retarget.status).toBe(403)
    expect(retarget.json.message).toBe(
      'events "own.1" is forbidden: node "n1" can only update events about itself or pods bound to it',
    )
    expect(
      (
        await api(
          'POST',
          events(),
          event('admins.1', { kind: 'Pod', namespace: 'auth', name: 'on-n2' }),
        )
      ).status,
    ).toBe(201)
    expect((await asNode('PATCH', `${events()}/admins.1`, { count: 2 }, merge)).status).toBe(403)
    const stored = (await api('GET', `${events()}/admins.1`)).json
    const put = await asNode('PUT', `${events()}/admins.1`, {
      ...stored,
      involvedObject: { kind: 'Pod', namespace: 'auth', name: 'on-n1' },
    })
    expect(put.status).toBe(403)
    expect(put.json.message).toBe(
      'events "admins.1" is forbidden: node "n1" can only update events about itself or pods bound to it',
    )
    expect((await api('GET', `${events()}/admins.1`)).json.involvedObject.name).toBe('on-n2')
    expect((await api('GET', `${events()}/own.1`)).json).toMatchObject({
      count: 2,
      involvedObject: { name: 'on-n1' },
    })
  })

  it('have their rules review marked incomplete, as the Node authorizer cannot list them', async () => {
    const res = await asNode('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'auth' },
    })
    expect(res.status).toBe(201)
    expect(res.json.status).toMatchObject({
      incomplete: true,
      evaluationError: 'node authorizer does not support user rule resolution',
    })
    expect(
      res.json.status.resourceRules.some((r: { resources: string[] }) =>
        r.resources.includes('secrets'),
      ),
    ).toBe(false)
    // Access reviews do ask the store: a secret no pod of n1 references is a no.
    const review = await asNode('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'auth', name: 'creds' },
      },
    })
    expect(review.json.status).toEqual({
      allowed: false,
      reason: `no relationship found between node 'n1' and this object`,
    })
  })

  it('open only their own tunnel; no other credential, not even the admin, opens it', async () => {
    const other = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n2/tunnel', {
      headers: { Authorization: `Bearer ${n1}`, Upgrade: 'websocket' },
    })
    expect(other.status).toBe(403)
    expect(((await other.json()) as any).message).toBe(
      'forbidden: User "system:node:n1" cannot get path "/agent/v1/nodes/n2/tunnel": only node "n2"\'s own credential may open its tunnel',
    )
    const admin = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', {
      headers: { Authorization: `Bearer ${adminToken}`, Upgrade: 'websocket' },
    })
    expect(admin.status).toBe(403)
    await admin.arrayBuffer()
    const noUpgrade = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', {
      headers: { Authorization: `Bearer ${n1}` },
    })
    expect(noUpgrade.status).toBe(400)
    await noUpgrade.arrayBuffer()
    const own = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', {
      headers: { Authorization: `Bearer ${n1}`, Upgrade: 'websocket' },
    })
    expect(own.status).toBe(101)
    own.webSocket!.accept()
    own.webSocket!.close(1000, 'done')
    const anonymous = await SELF.fetch('https://edgeplane.test/agent/v1/nodes/n1/tunnel', {
      headers: { Upgrade: 'websocket' },
    })
    expect(anonymous.status).toBe(401)
  })
})
