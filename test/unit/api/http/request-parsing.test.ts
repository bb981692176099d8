import { describe, expect, it } from 'vitest'
import {
  canonicalUrl,
  parseRequest,
  type ParsedRequest,
} from '../../../../src/api/http/request-info'
import type { Status } from '../../../../src/apimachinery/types'

const parse = (path: string, method = 'GET') => parseRequest(method, new URL(`https://h${path}`))
const status = (p: ParsedRequest | Status) => ('kind' in p ? p.code : 200)

describe('one reading of a request path', () => {
  it('decodes each segment once, so an encoded letter is the same request', () => {
    expect(parse('/api/v%31/namespaces/other/secrets/topsecret')).toEqual(
      parse('/api/v1/namespaces/other/secrets/topsecret'),
    )
    expect(parse('/%61pi/%76%31/namespaces/kube-system/secrets')).toMatchObject({
      path: '/api/v1/namespaces/kube-system/secrets',
      verb: 'list',
      info: { resource: 'secrets', namespace: 'kube-system' },
    })
    expect(parse('/ap%69s/apps/v1/namespaces/a/deployments/d/%73cale', 'PUT')).toMatchObject({
      verb: 'update',
      info: { group: 'apps', resource: 'deployments', name: 'd', subresource: 'scale' },
    })
    expect(parse('/%6detrics')).toEqual({ path: '/metrics', verb: 'get' })
    expect(parse('/agent/v1/nodes/n%31/tunnel')).toEqual({
      path: '/agent/v1/nodes/n1/tunnel',
      verb: 'get',
    })
  })

  it('gives kube-apiserver verbs and the Namespace its own status and finalize', () => {
    expect(parse('/api/v1/pods?watch=1')).toMatchObject({ verb: 'watch' })
    expect(parse('/api/v1/namespaces/a/pods', 'DELETE')).toMatchObject({ verb: 'deletecollection' })
    expect(parse('/api/v1/namespaces/a/finalize', 'PUT')).toMatchObject({
      verb: 'update',
      info: { resource: 'namespaces', name: 'a', subresource: 'finalize' },
    })
    expect(parse('/api/v1/namespaces/a/status')).toMatchObject({
      info: { resource: 'namespaces', name: 'a', subresource: 'status' },
    })
    expect(parse('/api/v1/namespaces/a')).toMatchObject({
      info: { resource: 'namespaces', name: 'a' },
    })
    expect(parse('/api/v1/namespaces/a/pods/p/log/extra')).toEqual({
      path: '/api/v1/namespaces/a/pods/p/log/extra',
      verb: 'get',
    })
  })

  it('refuses what decoding would change the meaning of: dot segments, an encoded slash, a doubled slash', () => {
    expect(status(parse('/api/v1/namespaces/a/pods/..%2fsecrets'))).toBe(400)
    expect(status(parse('/api/v1/namespaces/other%2Fsecrets'))).toBe(400)
    expect(status(parse('/api/v1//namespaces/a/secrets'))).toBe(404)
    expect(status(parse('/api/v1/namespaces/a/secrets/%2e'))).toBe(200)
    expect(parse('/api/v1/namespaces/a/secrets/%2e')).toMatchObject({
      info: { resource: 'secrets' },
    })
    expect(status(parse('/api/v1/namespaces/a/secrets/%ZZ'))).toBe(400)
    expect(parse('/api/v1/namespaces/a/pods/')).toMatchObject({
      path: '/api/v1/namespaces/a/pods',
      verb: 'list',
    })
  })

  it("keeps a proxy's path as the client wrote it, and reads only what comes before", () => {
    const p = parse('/api/v1/namespaces/a/services/web:80/proxy/x%2Fy//z/?q=1') as ParsedRequest
    expect(p).toMatchObject({
      path: '/api/v1/namespaces/a/services/web:80/proxy',
      verb: 'get',
      info: { resource: 'services', name: 'web:80', subresource: 'proxy' },
      proxyPath: '/x%2Fy//z/',
    })
    expect(parse('/api/v1/namespaces/a/pods/p/proxy')).toMatchObject({
      info: { subresource: 'proxy' },
    })
    expect((parse('/api/v1/namespaces/a/pods/p/proxy') as ParsedRequest).proxyPath).toBeUndefined()
    expect(status(parse('/api/v1/namespaces/a%2Fb/pods/p/proxy/x'))).toBe(400)
  })

  it('routes on a URL that reads back the same', () => {
    for (const path of [
      '/api/v%31/namespaces/o/secrets/s',
      '/api/v1/namespaces/a/services/w/proxy/x%2Fy?z=1',
      '/apis/apps/v1/deployments',
      '/',
    ]) {
      const url = new URL(`https://h${path}`)
      const parsed = parse(path) as ParsedRequest
      const canonical = canonicalUrl(url, parsed)
      expect(parseRequest('GET', canonical)).toEqual(parsed)
      expect(canonical.search).toBe(url.search)
    }
  })
})
