import { describe, expect, it } from 'vitest'
import { SELF, env, runInDurableObject } from 'cloudflare:test'
import type { KindStore } from '../../durable-objects/kind-store/kind-store'
import { api, configMap, openWatch, token } from './helpers'

describe('a watch with an invalid selector', () => {
  it('is a 400 before any socket is accepted, over HTTP and WebSocket, and writes keep working', async () => {
    const http = await api(
      'GET',
      '/api/v1/namespaces/default/pods?watch=true&fieldSelector=spec.nope%3D1',
    )
    expect(http.status).toBe(400)
    expect(http.json.reason).toBe('BadRequest')
    expect(http.json.message).toBe('field label not supported: spec.nope')
    const ws = await SELF.fetch(
      'https://edgeplane.test/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=spec.nope%3D1',
      {
        headers: { Authorization: `Bearer ${token}`, Upgrade: 'websocket' },
      },
    )
    expect(ws.status).toBe(400)
    expect(ws.webSocket).toBeNull()
    expect(((await ws.json()) as any).message).toBe(
      '"spec.nope" is not a known field selector: only "metadata.name", "metadata.namespace"',
    )
    const label = await api(
      'GET',
      '/api/v1/namespaces/default/configmaps?watch=true&labelSelector=a%20in%20(',
    )
    expect(label.status).toBe(400)
    const watch = await openWatch(
      '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dsel-ok',
    )
    const created = await api('POST', '/api/v1/namespaces/default/configmaps', configMap('sel-ok'))
    expect(created.status).toBe(201)
    await watch.received(1)
    expect(watch.events[0]!.type).toBe('ADDED')
    watch.close()
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('sel-ok-2'))).status,
    ).toBe(201)
  })
})

describe('a watcher the store cannot serve', () => {
  it('is dropped while the write that reached it succeeds and the other watchers still get it', async () => {
    // A watcher restored from hibernation whose selector no longer compiles, as a store could hold one.
    const stub = env.KIND_STORE.get(env.KIND_STORE.idFromName('core/configmaps'))
    await runInDurableObject(stub, (_store: KindStore, state) => {
      const pair = new WebSocketPair()
      state.acceptWebSocket(pair[1])
      pair[1].serializeAttachment({
        resource: 'configmaps',
        kind: 'ConfigMap',
        apiVersion: 'v1',
        fieldSelector: 'spec.nope=1',
        bookmarks: false,
      })
      pair[0].accept()
    })
    const good = await openWatch(
      '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dpoisoned-hub',
    )
    const created = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('poisoned-hub'),
    )
    expect(created.status).toBe(201)
    await good.received(1)
    expect(good.events[0]).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'poisoned-hub' } },
    })
    good.close()
    expect((await api('DELETE', '/api/v1/namespaces/default/configmaps/poisoned-hub')).status).toBe(
      200,
    )
  })
})

describe('JSON patch limits', () => {
  it('refuses 40 copies doubling an annotation (422) and 10,001 operations (413); nothing is stored and the next patch works', async () => {
    const cm = {
      ...configMap('jp-limits'),
      metadata: { name: 'jp-limits', annotations: { a: 'x'.repeat(64) } },
    }
    const created = await api('POST', '/api/v1/namespaces/default/configmaps', cm)
    expect(created.status).toBe(201)
    const rv = created.json.metadata.resourceVersion
    const doubling = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations',
      path: `/metadata/annotations/k${i}`,
    }))
    const copied = await api(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/jp-limits',
      doubling,
      'application/json-patch+json',
    )
    expect(copied.status).toBe(422)
    expect(copied.json.reason).toBe('Invalid')
    const many = Array.from({ length: 10_001 }, () => ({
      op: 'test',
      path: '/metadata/name',
      value: 'jp-limits',
    }))
    const tooMany = await api(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/jp-limits',
      many,
      'application/json-patch+json',
    )
    expect(tooMany.status).toBe(413)
    expect(tooMany.json.message).toBe(
      'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    )
    expect(
      (await api('GET', '/api/v1/namespaces/default/configmaps/jp-limits')).json.metadata
        .resourceVersion,
    ).toBe(rv)
    const ok = await api(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/jp-limits',
      [{ op: 'add', path: '/data/more', value: '1' }],
      'application/json-patch+json',
    )
    expect(ok.status).toBe(200)
    expect(ok.json.data.more).toBe('1')
  })
})

describe('merge-key lists', () => {
  it('answers a 250,000-element finalizers patch (too big to store: 413), stores nothing, and keeps serving the kind', async () => {
    const created = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('smp-long'),
    )
    expect(created.status).toBe(201)
    const finalizers = Array.from({ length: 250_000 }, (_, i) => `f${i}`)
    const path = '/api/v1/namespaces/default/configmaps/smp-long?fieldManager=kubectl-patch'
    const res = await api(
      'PATCH',
      path,
      { metadata: { finalizers } },
      'application/strategic-merge-patch+json',
    )
    expect(res.status).toBe(413)
    expect(res.json.reason).toBe('RequestEntityTooLarge')
    const after = await api('GET', '/api/v1/namespaces/default/configmaps/smp-long')
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion)
    // A long list that fits merges by value with the live one: kept, added, deleted, in patch order.
    const some = finalizers.slice(0, 5_000)
    const merged = await api(
      'PATCH',
      path,
      { metadata: { finalizers: some } },
      'application/strategic-merge-patch+json',
    )
    expect(merged.status).toBe(200)
    const again = await api(
      'PATCH',
      path,
      {
        metadata: {
          finalizers: ['f10', 'extra'],
          '$deleteFromPrimitiveList/finalizers': ['f0', 'f1'],
        },
      },
      'application/strategic-merge-patch+json',
    )
    expect(again.status).toBe(200)
    expect(again.json.metadata.finalizers).toHaveLength(5_000 - 2 + 1)
    expect(again.json.metadata.finalizers.slice(0, 3)).toEqual(['f2', 'f3', 'f4'])
    expect(again.json.metadata.finalizers).toContain('extra')
    const cleared = await api(
      'PATCH',
      path,
      { metadata: { finalizers: null } },
      'application/strategic-merge-patch+json',
    )
    expect(cleared.status).toBe(200)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('smp-long-next')))
        .status,
    ).toBe(201)
  }, 60_000)
})

describe('CRDs in Kubernetes groups', () => {
  it('refuses one without API approval (422, nothing stored), and the built-in kind keeps its objects', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'keep-me' },
      spec: { holderIdentity: 'x' },
    }
    expect(
      (await api('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease)).status,
    ).toBe(201)
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'leases.coordination.k8s.io' },
      spec: {
        group: 'coordination.k8s.io',
        scope: 'Namespaced',
        names: { plural: 'leases', kind: 'Lease' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        ],
      },
    }
    const refused = await api(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd,
    )
    expect(refused.status).toBe(422)
    expect(refused.json.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "leases.coordination.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    )
    expect(
      (
        await api(
          'GET',
          '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/leases.coordination.k8s.io',
        )
      ).status,
    ).toBe(404)
    expect(
      (await api('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/keep-me')).status,
    ).toBe(200)
  })
})

describe('event expiry', () => {
  const store = (name: string) => env.KIND_STORE.get(env.KIND_STORE.idFromName(name))
  const event = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
    reason: 'Test',
    message: 'hello',
    type: 'Normal',
  })

  it('removes Events an hour after their last write, as watch DELETED events, and no other kind', async () => {
    expect((await api('POST', '/api/v1/namespaces/default/events', event('old-news'))).status).toBe(
      201,
    )
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('not-an-event')))
        .status,
    ).toBe(201)
    const watch = await openWatch(
      '/api/v1/namespaces/default/events?watch=true&fieldSelector=metadata.name%3Dold-news',
    )
    await watch.received(1)
    // Nothing is due before the hour is up.
    expect(
      await runInDurableObject(store('core/events'), (s: KindStore) =>
        s.expireEvents(Date.now() + 3_599_000),
      ),
    ).toBe(false)
    expect((await api('GET', '/api/v1/namespaces/default/events/old-news')).status).toBe(200)
    await runInDurableObject(store('core/events'), (s: KindStore) =>
      s.expireEvents(Date.now() + 3_601_000),
    )
    expect((await api('GET', '/api/v1/namespaces/default/events/old-news')).status).toBe(404)
    await watch.received(2)
    expect(watch.events[1]).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'old-news' } },
    })
    watch.close()
    await runInDurableObject(store('core/configmaps'), (s: KindStore) =>
      s.expireEvents(Date.now() + 10 * 3_600_000),
    )
    expect((await api('GET', '/api/v1/namespaces/default/configmaps/not-an-event')).status).toBe(
      200,
    )
    expect((await api('POST', '/api/v1/namespaces/default/events', event('new-news'))).status).toBe(
      201,
    )
  })
})

describe('request framing', () => {
  it('answers 400 for a path with malformed percent-encoding, and serves the next request', async () => {
    for (const path of [
      '/api/v1/namespaces/default/configmaps/%E0%A4%A',
      '/api/v1/namespaces/%zz/configmaps',
      '/apis/apps/v1/namespaces/default/deployments/%',
    ]) {
      const res = await api('GET', path)
      expect(res.status).toBe(400)
      expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
    }
    expect((await api('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200)
  })

  it('stops reading a body without Content-Length at 3 MiB: 413, nothing stored', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the limit; a reader that stops at the limit never asks for all of it.
        if (sent >= 64 * 1024 * 1024) return controller.close()
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const res = await SELF.fetch('https://edgeplane.test/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
    })
    expect(res.status).toBe(413)
    expect(((await res.json()) as any).reason).toBe('RequestEntityTooLarge')
    expect(sent).toBeLessThan(8 * 1024 * 1024)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('after-big-body')))
        .status,
    ).toBe(201)
  })
})
