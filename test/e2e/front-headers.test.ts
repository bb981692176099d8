import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './helpers/server'

// Headers Miniflare's entry worker acts on (MF-*) reach it only from the launcher itself: a
// client sending them through the https front changes nothing of what is served.
describe('the https front and the runtime’s own headers', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server?.dispose()
  })

  const version = async (headers: Record<string, string>) => {
    const res = await server.request('/version', { token: server.token, headers })
    expect(res.status, res.body.slice(0, 200)).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({
      major: '1',
      gitVersion: expect.stringMatching(/^v1\./),
    })
  }

  it('keeps the URL served when a client sends MF-Original-URL', async () => {
    await version({ 'MF-Original-URL': `${server.url}/healthz` })
    await version({ 'mf-original-url': 'http://127.0.0.1/api/v1/namespaces/kube-system/secrets' })
  })

  it('keeps the Worker served when a client sends MF-Route-Override or a made-up request.cf', async () => {
    await version({ 'MF-Route-Override': 'no-such-route' })
    await version({
      'MF-CF-Blob': '{not json',
      'MF-Disable-Pretty-Error': 'true',
      'MF-Proxy-Shared-Secret': 'guess',
    })
  })

  it('refuses a write where it was sent, whatever URL a client names in MF-Original-URL', async () => {
    const res = await server.request('/api/v1/namespaces/no-such-namespace/configmaps', {
      method: 'POST',
      token: server.token,
      headers: {
        'content-type': 'application/json',
        'MF-Original-URL': `${server.url}/api/v1/namespaces/default/configmaps`,
      },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'redirected' },
      }),
    })
    expect(res.status).toBe(404)
    expect(
      (
        await server.request('/api/v1/namespaces/default/configmaps/redirected', {
          token: server.token,
        })
      ).status,
    ).toBe(404)
  })
})
