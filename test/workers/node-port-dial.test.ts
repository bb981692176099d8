import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeFakeAgents, fakeAgent } from './fake-agent'
import { api } from './helpers'
import { podManifest, waitFor } from '../helpers'

// The gateways' node-to-node path for NodePorts: node B's agent asks its gateway to `dial` a pod
// on node A; the gateway checks the Service and its Endpoints and relays a `tcp` stream to A's agent.

const ns = '/api/v1/namespaces/nodeports'
const dec = new TextDecoder()
let uid = ''
let nodePort = 0
let internalNodePort = 0

afterEach(closeFakeAgents)

beforeAll(async () => {
  await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'nodeports' },
  })
  const created = await api('POST', `${ns}/pods`, podManifest('web', { nodeName: 'np-a' }))
  expect(created.status).toBe(201)
  uid = created.json.metadata.uid
  // Selector-less Services, so these Endpoints are the test's own.
  const svc = await api('POST', `${ns}/services`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }] },
  })
  expect(svc.status).toBe(201)
  nodePort = svc.json.spec.ports[0].nodePort
  const local = await api('POST', `${ns}/services`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'local' },
    spec: { type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80 }] },
  })
  internalNodePort = local.json.spec.ports[0].nodePort
  for (const name of ['web', 'local']) {
    const eps = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name },
      subsets: [
        {
          addresses: [
            {
              ip: '10.1.0.5',
              nodeName: 'np-a',
              targetRef: { kind: 'Pod', namespace: 'nodeports', name: 'web', uid },
            },
          ],
          ports: [{ name: 'http', port: 8080 }],
        },
      ],
    }
    expect((await api('POST', `${ns}/endpoints`, eps)).status).toBe(201)
  }
})

const dial = (id: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    op: 'dial',
    id,
    namespace: 'nodeports',
    service: 'web',
    nodePort,
    node: 'np-a',
    pod: 'web',
    ...extra,
  })

describe('dial: a NodePort connection to a pod on another node', () => {
  it("relays bytes both ways between the two nodes' agents, and ends at both ends", async () => {
    const a = await fakeAgent('np-a')
    const b = await fakeAgent('np-b')
    let tcp: any
    a.onOpen((msg) => {
      tcp = msg
      a.data(msg.id, 3, '{}')
      a.data(msg.id, 1, 'hello from the pod')
    })
    const id = 0x80000007
    b.ws.send(dial(id))
    await waitFor(() => b.frames.length >= 2 || undefined, { what: 'the pod bytes at node B' })
    expect(tcp).toMatchObject({
      op: 'tcp',
      podUid: uid,
      namespace: 'nodeports',
      pod: 'web',
      port: 8080,
    })
    expect(b.frames.map((f) => [f.id >>> 0, f.channel, dec.decode(f.payload)])).toEqual([
      [id, 3, '{}'],
      [id, 1, 'hello from the pod'],
    ])
    b.data(id, 0, 'request bytes')
    await waitFor(() => a.frames.find((f) => f.id === tcp.id && f.channel === 0), {
      what: 'the client bytes at node A',
    })
    expect(dec.decode(a.frames.find((f) => f.id === tcp.id)!.payload)).toBe('request bytes')
    a.end(tcp.id)
    await waitFor(() => b.messages.find((m) => m.op === 'end' && m.id === id), {
      what: 'the end at node B',
    })
  })

  it('is refused unless the pod is a ready endpoint of the Service owning that node port, and not Local', async () => {
    const a = await fakeAgent('np-a')
    const b = await fakeAgent('np-b')
    const opened: unknown[] = []
    a.onOpen((msg) => opened.push(msg))
    const cases: Array<[number, Record<string, unknown>, string]> = [
      [
        0x80000001,
        { pod: 'other' },
        'pod nodeports/other on node "np-a" is not a ready endpoint of service nodeports/web node port',
      ],
      [0x80000002, { node: 'np-b' }, 'is not a ready endpoint'],
      [
        0x80000003,
        { nodePort: nodePort + 1 },
        `service nodeports/web has no TCP node port ${nodePort + 1}`,
      ],
      [0x80000004, { service: 'local', nodePort: internalNodePort }, 'externalTrafficPolicy Local'],
      [0x80000005, { service: 'nope' }, 'services "nope" not found'],
      [7, {}, 'invalid stream id'],
    ]
    for (const [id, extra] of cases) b.ws.send(dial(id, extra))
    for (const [id, , error] of cases) {
      const end = await waitFor(() => b.messages.find((m) => m.op === 'end' && m.id === id), {
        what: `the refusal of ${id}`,
      })
      expect(end.error).toContain(error)
    }
    expect(opened).toEqual([])
  })

  it("ends with an error when the pod's node has no tunnel", async () => {
    const b = await fakeAgent('np-b')
    b.ws.send(dial(0x80000009))
    const end = await waitFor(() => b.messages.find((m) => m.op === 'end' && m.id === 0x80000009), {
      what: 'the end',
    })
    expect(end.error).toBe('node "np-a" has no connected agent')
  })
})
