import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeFakeAgents } from './fake-agent'
import { api } from './helpers'
import { cachesExpire, httpAgent, viaEdge } from './http-agent'
import { podManifest } from '../helpers'

// A Service reaches only its own namespace's pods: hand-made Endpoints in namespace `ep-a` that name
// a pod of namespace `ep-b` (by its namespace, or by its uid under a name of `ep-a`) route nothing
// there, through the Ingress edge or services/proxy.

const NODE = 'endpoints-ns-node'
let victimUid = ''

afterEach(closeFakeAgents)

async function endpoints(name: string, targetRef: Record<string, string>) {
  expect(
    (
      await api('POST', '/api/v1/namespaces/ep-a/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { ports: [{ port: 80, targetPort: 8080 }] },
      })
    ).status,
  ).toBe(201)
  const eps = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name },
    subsets: [
      {
        addresses: [{ ip: '10.244.0.7', nodeName: NODE, targetRef: { kind: 'Pod', ...targetRef } }],
        ports: [{ port: 8080 }],
      },
    ],
  }
  expect((await api('POST', '/api/v1/namespaces/ep-a/endpoints', eps)).status).toBe(201)
  const rule = {
    host: `${name}.example`,
    http: {
      paths: [
        { path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } },
      ],
    },
  }
  expect(
    (
      await api('POST', '/apis/networking.k8s.io/v1/namespaces/ep-a/ingresses', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name },
        spec: { ingressClassName: 'edgeplane', rules: [rule] },
      })
    ).status,
  ).toBe(201)
}

beforeAll(async () => {
  for (const ns of ['ep-a', 'ep-b'])
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns },
        })
      ).status,
    ).toBe(201)
  const victim = await api(
    'POST',
    '/api/v1/namespaces/ep-b/pods',
    podManifest('db', { nodeName: NODE }),
  )
  victimUid = victim.json.metadata.uid
  const own = await api(
    'POST',
    '/api/v1/namespaces/ep-a/pods',
    podManifest('web', { nodeName: NODE }),
  )
  // Another namespace's pod by namespace, and by uid under a name of ep-a (or of no pod at all).
  await endpoints('by-namespace', { namespace: 'ep-b', name: 'db', uid: victimUid })
  await endpoints('by-uid', { name: 'web', uid: victimUid })
  await endpoints('by-uid-nameless', { name: 'ghost', uid: victimUid })
  await endpoints('own', { namespace: 'ep-a', name: 'web', uid: own.json.metadata.uid })
  await cachesExpire()
})

describe("Endpoints naming another namespace's pod", () => {
  it('route nothing through the edge or services/proxy, while the same Service path reaches its own pod', async () => {
    const { opened } = await httpAgent(NODE)
    for (const name of ['by-namespace', 'by-uid', 'by-uid-nameless']) {
      const edge = await viaEdge(`${name}.example`, '/secret')
      expect(edge.status, name).toBe(503)
      const proxy = await api('GET', `/api/v1/namespaces/ep-a/services/${name}:80/proxy/secret`)
      expect(proxy.status, name).toBe(503)
    }
    expect(opened).toEqual([])
    // The path itself works: a Service of ep-a whose Endpoints name its own pod.
    expect(await viaEdge('own.example', '/ok')).toEqual({ status: 200, body: 'ep-a/web /ok' })
    const proxied = await api('GET', '/api/v1/namespaces/ep-a/services/own:80/proxy/ok')
    expect(proxied.status).toBe(200)
    expect(proxied.json).toBe('ep-a/web /ok')
    expect(opened.map((o) => `${o.namespace}/${o.pod}`)).toEqual(['ep-a/web', 'ep-a/web'])
    expect(opened.every((o) => o.podUid !== victimUid)).toBe(true)
  })
})
