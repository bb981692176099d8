import { afterAll, describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { microTime } from '../../src/apimachinery/meta-time'
import { api, joinNode, openWatch, token as adminToken } from './helpers'
import { waitFor } from '../helpers'

const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'
const admission = '/apis/admissionregistration.k8s.io/v1'
const policies = `${admission}/validatingadmissionpolicies`

const as = (tok: string, method: string, path: string, body?: unknown, type?: string) =>
  api(method, path, body, type, { Authorization: `Bearer ${tok}` })

/** Opens `node`'s heartbeat stream with `token`; its answers by id, and its close code. */
async function heartbeat(node: string, token: string) {
  const res = await SELF.fetch(`https://edgeplane.test/agent/v1/nodes/${node}/heartbeat`, {
    headers: { Authorization: `Bearer ${token}`, Upgrade: 'websocket' },
  })
  const ws = res.webSocket
  if (!ws) return refusedStream(res.status, await res.json())
  ws.accept()
  const replies = new Map<number, any>()
  let closedWith: number | undefined
  ws.addEventListener('message', (e) => {
    const reply = JSON.parse(String(e.data))
    replies.set(reply.id, reply)
  })
  ws.addEventListener('close', (e) => {
    closedWith = e.code
  })
  let id = 0
  return {
    status: res.status,
    ws,
    closed: () => waitFor(() => closedWith, { what: 'the stream to close' }),
    /** sends a message; its answer */
    body: undefined as any,
    async send(message: string | Record<string, unknown>): Promise<any> {
      const sent = ++id
      ws.send(typeof message === 'string' ? message : JSON.stringify({ id: sent, ...message }))
      return waitFor(() => replies.get(typeof message === 'string' ? 0 : sent), {
        what: `the answer to message ${sent}`,
      })
    },
  }
}

/** An upgrade that was answered without a socket. */
function refusedStream(status: number, body: any) {
  const none = () => Promise.reject(new Error(`the stream was refused with ${status}`))
  return { status, body, ws: undefined, closed: none, send: none }
}

const renewal = (ms: number) => ({ patch: { spec: { renewTime: microTime(ms) } } })

async function nodeWithLease(node: string): Promise<string> {
  const token = await joinNode(node)
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: node, namespace: 'kube-node-lease' },
    spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: microTime(Date.now()) },
  }
  expect((await as(token, 'POST', leases, lease)).status).toBe(201)
  return token
}

afterAll(async () => {
  await api('DELETE', `${policies}/lease-watcher`)
  await api('DELETE', `${admission}/validatingadmissionpolicybindings/lease-watcher`)
})

describe('a node heartbeat stream', () => {
  it('renews the node Lease with each message: watchers see every renewal, and the answer carries its resourceVersion', async () => {
    const token = await nodeWithLease('hb1')
    const watch = await openWatch(`${leases}?watch=true&fieldSelector=metadata.name%3Dhb1`)
    await watch.received(1)
    const stream = await heartbeat('hb1', token)
    expect(stream.status).toBe(101)
    const times = [Date.now() + 1000, Date.now() + 2000]
    for (const ms of times) {
      const reply = await stream.send(renewal(ms))
      expect(reply.resourceVersion).toMatch(/^\d+$/)
    }
    const events = await watch.received(3)
    expect(events.slice(1).map((e) => [e.type, e.object.spec.renewTime])).toEqual(
      times.map((ms) => ['MODIFIED', microTime(ms)]),
    )
    const stored = (await api('GET', `${leases}/hb1`)).json
    expect(stored.spec).toEqual({
      holderIdentity: 'hb1',
      leaseDurationSeconds: 40,
      renewTime: microTime(times[1]!),
    })
    watch.close()
    stream.ws!.close(1000, 'done')
  })

  it('refuses what is not a renewal with a Status naming the field, changing nothing', async () => {
    const token = await nodeWithLease('hb2')
    const before = (await api('GET', `${leases}/hb2`)).json
    const stream = await heartbeat('hb2', token)
    const holder = await stream.send({ patch: { spec: { holderIdentity: 'someone-else' } } })
    expect(holder.status).toMatchObject({ code: 400, reason: 'BadRequest' })
    expect(holder.status.message).toContain('spec.holderIdentity')
    const labels = await stream.send({ patch: { metadata: { labels: { a: 'b' } } } })
    expect(labels.status.message).toContain('metadata.labels.a')
    // A renew time that is no time is answered as the same PATCH is.
    const yesterday = { spec: { renewTime: 'yesterday' } }
    const bad = await stream.send({ patch: yesterday })
    const patched = await as(
      token,
      'PATCH',
      `${leases}/hb2`,
      yesterday,
      'application/merge-patch+json',
    )
    expect(bad.status).toEqual(patched.json)
    expect(bad.status).toMatchObject({ code: 400, reason: 'BadRequest' })
    expect(bad.status.message).toContain('parsing time "yesterday"')
    expect((await stream.send('not json')).status.code).toBe(400)
    expect((await api('GET', `${leases}/hb2`)).json.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    )
    stream.ws!.close(1000, 'done')
  })

  it('is granted by the API server alone: a watch that names a grant and sends renewals writes nothing', async () => {
    await nodeWithLease('hb8')
    const before = (await api('GET', `${leases}/hb8`)).json.metadata.resourceVersion
    const forged = {
      target: {
        def: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', namespaced: true },
        namespace: 'kube-node-lease',
        name: 'hb8',
      },
      fields: ['spec.renewTime'],
      fixed: {},
      opts: {},
    }
    const res = await SELF.fetch(
      `https://edgeplane.test${leases}?watch=true&fieldSelector=metadata.name%3Dhb8`,
      {
        headers: {
          Authorization: `Bearer ${adminToken}`,
          Upgrade: 'websocket',
          'X-Edgeplane-Patch-Grant': JSON.stringify(forged),
        },
      },
    )
    const ws = res.webSocket!
    ws.accept()
    const answers: string[] = []
    ws.addEventListener('message', (e) => {
      answers.push(String(e.data))
    })
    ws.send(JSON.stringify({ id: 1, ...renewal(Date.now() + 5000) }))
    await waitFor(() => answers.length >= 1, { what: 'the watch to list the Lease' })
    await new Promise((r) => setTimeout(r, 300))
    expect(answers.every((a) => JSON.parse(a).type === 'ADDED')).toBe(true)
    expect((await api('GET', `${leases}/hb8`)).json.metadata.resourceVersion).toBe(before)
    ws.close(1000, 'done')
  })

  it('answers 404 for a Lease not created yet', async () => {
    const stream = await heartbeat('hb3', await joinNode('hb3'))
    expect((await stream.send(renewal(Date.now()))).status).toMatchObject({
      code: 404,
      reason: 'NotFound',
    })
    stream.ws!.close(1000, 'done')
  })

  it("opens only with the node's own credential", async () => {
    const other = await joinNode('hb4')
    await nodeWithLease('hb5')
    for (const token of [other, adminToken]) {
      const refused = await heartbeat('hb5', token)
      expect(refused.status).toBe(403)
      expect(refused.body.message).toContain(
        `only node "hb5"'s own credential may open its heartbeat`,
      )
    }
  })

  it('closes when the node credential is revoked', async () => {
    const stream = await heartbeat('hb6', await nodeWithLease('hb6'))
    expect((await api('DELETE', '/api/v1/nodes/hb6')).status).toBe(200)
    expect(await stream.closed()).toBe(4001)
  })

  it('is refused while an admission policy could see Lease updates, and closed when one is configured', async () => {
    const token = await nodeWithLease('hb7')
    const stream = await heartbeat('hb7', token)
    expect(stream.status).toBe(101)
    const created = await api('POST', policies, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'lease-watcher' },
      spec: {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['coordination.k8s.io'],
              apiVersions: ['v1'],
              operations: ['UPDATE'],
              resources: ['leases'],
            },
          ],
        },
        validations: [{ expression: 'true' }],
      },
    })
    expect(created.status).toBe(201)
    // A policy without a binding admits nothing: the stream stays open until it is bound.
    const bound = await api('POST', `${admission}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'lease-watcher' },
      spec: { policyName: 'lease-watcher', validationActions: ['Deny'] },
    })
    expect(bound.status).toBe(201)
    expect(await stream.closed()).toBe(1000)
    const refused = await heartbeat('hb7', token)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain('renew the Lease with PATCH')
    expect(
      (await api('DELETE', `${admission}/validatingadmissionpolicybindings/lease-watcher`)).status,
    ).toBe(200)
    expect((await heartbeat('hb7', token)).status).toBe(101)
  })
})
