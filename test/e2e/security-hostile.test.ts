import { request as httpsRequest } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Hostile input, played as an attacker holding a token would send it: raw https requests against
// the real launcher. Each refusal is followed by a check that nothing was stored and that the next
// ordinary request to the same kind still works.
describe('hostile input cannot hurt a store', () => {
  let server: TestServer
  const eventTtlSeconds = 2

  const call = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    server.request(path, {
      method,
      token: server.token,
      timeoutMs: 60_000,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const json = (res: { body: string }) => JSON.parse(res.body)
  const configMap = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...extra },
    data: { k: 'v' },
  })
  const create = async (path: string, obj: unknown) =>
    expect((await call('POST', path, obj)).status).toBe(201)

  beforeAll(async () => {
    server = await startServer({ env: { EDGEPLANE_EVENT_TTL_SECONDS: String(eventTtlSeconds) } })
  })

  afterAll(async () => {
    await server?.dispose()
  })

  it('refuses a watch with an unsupported field selector with 400, and later writes to the kind still succeed', async () => {
    const res = await call(
      'GET',
      '/api/v1/namespaces/default/pods?watch=true&fieldSelector=spec.nope%3D1',
    )
    expect(res.status).toBe(400)
    expect(json(res)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'field label not supported: spec.nope',
    })
    const cm = await call(
      'GET',
      '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=spec.nope%3D1',
    )
    expect(cm.status).toBe(400)
    await create('/api/v1/namespaces/default/configmaps', configMap('after-bad-watch'))
    const again = await kubectl(
      ['create', 'configmap', 'after-bad-watch-2', '--from-literal=a=b'],
      { kubeconfig: server.kubeconfig },
    )
    expect(again.code).toBe(0)
  })

  it('refuses JSON patches beyond upstream limits; the object is unchanged and the next patch applies', async () => {
    const path = '/api/v1/namespaces/default/configmaps/json-patch-target'
    await create(
      '/api/v1/namespaces/default/configmaps',
      configMap('json-patch-target', { annotations: { a: 'x'.repeat(64) } }),
    )
    const before = json(await call('GET', path)).metadata.resourceVersion
    const doubling = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations',
      path: `/metadata/annotations/k${i}`,
    }))
    const copied = await call('PATCH', path, doubling, 'application/json-patch+json')
    expect(copied.status).toBe(422)
    const many = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/data/k', value: 'v' }))
    const tooMany = await call('PATCH', path, many, 'application/json-patch+json')
    expect(tooMany.status).toBe(413)
    expect(json(tooMany).message).toBe(
      'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    )
    expect(json(await call('GET', path)).metadata.resourceVersion).toBe(before)
    const ok = await kubectl(
      [
        'patch',
        'configmap',
        'json-patch-target',
        '--type=json',
        '-p',
        '[{"op":"add","path":"/data/b","value":"c"}]',
      ],
      { kubeconfig: server.kubeconfig },
    )
    expect(ok.code).toBe(0)
  })

  it('answers a 250,000-element finalizers patch without freezing the kind', async () => {
    await create('/api/v1/namespaces/default/configmaps', configMap('many-finalizers'))
    const finalizers = Array.from({ length: 250_000 }, (_, i) => `f${i}`)
    const started = Date.now()
    const res = await call(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/many-finalizers?fieldManager=kubectl-patch',
      { metadata: { finalizers } },
      'application/strategic-merge-patch+json',
    )
    console.log(
      `250,000-element finalizers strategic merge patch answered ${res.status} in ${Date.now() - started} ms`,
    )
    // Too big to store once merged: refused whole.
    expect(res.status).toBe(413)
    expect(
      json(await call('GET', '/api/v1/namespaces/default/configmaps/many-finalizers')).metadata
        .finalizers,
    ).toBeUndefined()
    await create('/api/v1/namespaces/default/configmaps', configMap('after-many-finalizers'))
  })

  it('matches CRD patterns in linear time and refuses CRDs in Kubernetes groups without approval', async () => {
    const crd = (
      group: string,
      plural: string,
      kind: string,
      annotations?: Record<string, string>,
      pattern?: string,
    ) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}`, ...(annotations ? { annotations } : {}) },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural, kind },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: { name: { type: 'string', ...(pattern ? { pattern } : {}) } },
                  },
                },
              },
            },
          },
        ],
      },
    })
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
    await create(crds, crd('hostile.example.com', 'matchers', 'Matcher', undefined, '^(a+)+$'))
    const widget = (name: string, value: string) => ({
      apiVersion: 'hostile.example.com/v1',
      kind: 'Matcher',
      metadata: { name },
      spec: { name: value },
    })
    const path = '/apis/hostile.example.com/v1/namespaces/default/matchers'
    const evil = await waitFor(
      async () => {
        const res = await call('POST', path, widget('evil', 'a'.repeat(40) + '!'))
        return res.status === 404 ? undefined : res
      },
      { what: 'the Matcher kind to be served', timeoutMs: 20_000 },
    )
    expect(evil.status).toBe(422)
    expect(json(evil).message).toContain(`spec.name in body should match '^(a+)+$'`)
    await create(path, widget('fine', 'a'.repeat(40)))

    const refused = await call('POST', crds, crd('coordination.k8s.io', 'leases', 'Lease'))
    expect(refused.status).toBe(422)
    expect(json(refused).message).toContain(
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation',
    )

    // Even an approved CRD naming a built-in resource never reaches the built-in store: deleting it leaves every Lease.
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases'
    await create(leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'precious' },
      spec: { holderIdentity: 'me' },
    })
    await create(
      crds,
      crd('coordination.k8s.io', 'leases', 'Lease', {
        'api-approved.kubernetes.io': 'unapproved, testing',
      }),
    )
    const deleted = await kubectl(
      ['delete', 'crd', 'leases.coordination.k8s.io', '--wait=true', '--timeout=60s'],
      { kubeconfig: server.kubeconfig, timeoutMs: 90_000 },
    )
    expect(deleted.code).toBe(0)
    expect((await call('GET', `${leases}/precious`)).status).toBe(200)
  })

  it('expires Events after the event TTL, so the events store cannot grow without bound', async () => {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'short-lived' },
      involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default' },
      reason: 'Hello',
      message: 'hello',
      type: 'Normal',
    }
    await create('/api/v1/namespaces/default/events', event)
    await waitFor(
      async () =>
        (await call('GET', '/api/v1/namespaces/default/events/short-lived')).status === 404,
      {
        what: 'the Event to expire',
        timeoutMs: 30_000,
        intervalMs: 500,
      },
    )
    await create('/api/v1/namespaces/default/events', {
      ...event,
      metadata: { name: 'next-event' },
    })
  })

  it('answers 400 for a malformed percent-encoded path and 413 for an endless body without Content-Length', async () => {
    const bad = await call('GET', '/api/v1/namespaces/default/configmaps/%E0%A4%A')
    expect(bad.status).toBe(400)
    expect(json(bad)).toMatchObject({ kind: 'Status', reason: 'BadRequest' })

    const { status, sent } = await endlessBodyAnswered('/api/v1/namespaces/default/configmaps')
    expect(status).toBe(413)
    // The server stopped reading near the 3 MiB limit instead of taking all 64 MiB.
    expect(sent).toBeLessThan(64 * 1024 * 1024)
    await create('/api/v1/namespaces/default/configmaps', configMap('after-endless-body'))
  })

  /**
   * `endlessBody` until an attempt reads the answer: the server closes the connection once it has
   * answered, and the client's next write can fail with a reset before its answer is read.
   */
  async function endlessBodyAnswered(path: string): Promise<{ status: number; sent: number }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await endlessBody(path)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (attempt === 3 || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw err
      }
    }
  }

  /** POSTs a chunked body (no Content-Length) of up to 64 MiB, writing only as fast as the server reads. */
  function endlessBody(path: string): Promise<{ status: number; sent: number }> {
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const limit = 64 * 1024 * 1024
    return new Promise((resolve, reject) => {
      let sent = 0
      let done = false
      const req = httpsRequest(server.url + path, {
        method: 'POST',
        ca: server.ca,
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
        timeout: 60_000,
      })
      req.on('response', (res) => {
        done = true
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, sent }))
      })
      req.on('error', (err) => (done ? undefined : reject(err)))
      const pump = () => {
        while (!done && sent < limit) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        if (!done) req.end()
      }
      pump()
    })
  }
})
