import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap, openWatch, token } from './helpers'

describe('a watch with an invalid selector', () => {
  it('is a 400 before any socket is accepted, over HTTP and WebSocket, and writes keep working', async () => {
    const http = await api('GET', '/api/v1/namespaces/default/pods?watch=true&fieldSelector=spec.nope%3D1')
    expect(http.status).toBe(400)
    expect(http.json.reason).toBe('BadRequest')
    expect(http.json.message).toBe('field label not supported: spec.nope')
    const ws = await SELF.fetch('https://edgeplane.test/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=spec.nope%3D1', {
      headers: { Authorization: `Bearer ${token}`, Upgrade: 'websocket' },
    })
    expect(ws.status).toBe(400)
    expect(ws.webSocket).toBeNull()
    expect(((await ws.json()) as any).message).toBe('"spec.nope" is not a known field selector: only "metadata.name", "metadata.namespace"')
    const label = await api('GET', '/api/v1/namespaces/default/configmaps?watch=true&labelSelector=a%20in%20(')
    expect(label.status).toBe(400)
    const watch = await openWatch('/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dsel-ok')
    const created = await api('POST', '/api/v1/namespaces/default/configmaps', configMap('sel-ok'))
    expect(created.status).toBe(201)
    await watch.waitFor(1)
    expect(watch.events[0]!.type).toBe('ADDED')
    watch.close()
    expect((await api('POST', '/api/v1/namespaces/default/configmaps', configMap('sel-ok-2'))).status).toBe(201)
  })
})
