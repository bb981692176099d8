import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { buildRoutes, matchRoute, type EdgeSettings } from '../../../src/apis/ingress-routes'

const settings = (lbDomain: string): EdgeSettings => ({
  edgeIsDefault: true,
  lbDomain,
  apiHosts: [],
  shared: new Map(),
})

const backend = (service: string, port: number | string = 80) => ({
  service: { name: service, port: typeof port === 'number' ? { number: port } : { name: port } },
})

function ingress(
  name: string,
  spec: Record<string, unknown>,
  created = '2026-01-01T00:00:00Z',
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: 'shop', creationTimestamp: created },
    spec,
  }
}

const table = buildRoutes(
  [
    ingress('main', {
      rules: [
        {
          host: 'shop.example',
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: backend('front') },
              { path: '/api/', pathType: 'Prefix', backend: backend('api', 'http') },
              { path: '/api/health', pathType: 'Exact', backend: backend('health') },
            ],
          },
        },
        {
          host: '*.shop.example',
          http: {
            paths: [{ path: '/', pathType: 'ImplementationSpecific', backend: backend('tenant') }],
          },
        },
        { http: { paths: [{ path: '/any', pathType: 'Prefix', backend: backend('hostless') }] } },
      ],
    }),
    ingress('fallback', { defaultBackend: backend('default') }, '2026-01-02T00:00:00Z'),
    ingress('other-class', {
      ingressClassName: 'nginx',
      rules: [
        {
          host: 'nginx.example',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: backend('x') }] },
        },
      ],
    }),
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb', namespace: 'shop' },
      spec: { type: 'LoadBalancer', ports: [{ port: 443 }, { port: 80 }] },
    },
  ],
  settings('lb.example'),
)

const route = (host: string, path: string) => matchRoute(table, host, path)?.service

describe('edge Ingress routing', () => {
  it('matches Prefix by whole path elements, the longest prefix winning, and Exact above both', () => {
    expect(route('shop.example', '/')).toBe('front')
    expect(route('shop.example', '/api')).toBe('api')
    expect(route('shop.example', '/api/items')).toBe('api')
    expect(route('shop.example', '/apiary')).toBe('front')
    expect(route('shop.example', '/api/health')).toBe('health')
    expect(matchRoute(table, 'shop.example', '/api/x')).toEqual({
      namespace: 'shop',
      service: 'api',
      port: 'http',
    })
  })

  it('matches a wildcard host on exactly one label, host names case-insensitively', () => {
    expect(route('a.shop.example', '/x')).toBe('tenant')
    expect(route('A.Shop.Example', '/x')).toBe('tenant')
    expect(route('a.b.shop.example', '/any')).toBe('hostless')
  })

  it('sends what no host rule takes to host-less rules, then to the oldest default backend', () => {
    expect(route('unknown.example', '/any/thing')).toBe('hostless')
    expect(route('unknown.example', '/other')).toBe('default')
  })

  it('leaves Ingresses of another class alone', () => {
    expect(route('nginx.example', '/')).toBe('default')
  })

  it('serves a LoadBalancer Service at <svc>.<ns>.<domain> on its port 80', () => {
    expect(matchRoute(table, 'lb.shop.lb.example', '/whatever')).toEqual({
      namespace: 'shop',
      service: 'lb',
      port: '80',
    })
  })

  it('serves nothing when nothing matches and there is no default backend', () => {
    const bare = buildRoutes(
      [
        ingress('one', {
          rules: [
            {
              host: 'a.example',
              http: { paths: [{ path: '/x', pathType: 'Exact', backend: backend('a') }] },
            },
          ],
        }),
      ],
      [],
      settings('localhost'),
    )
    expect(matchRoute(bare, 'a.example', '/y')).toBeUndefined()
    expect(matchRoute(bare, 'b.example', '/x')).toBeUndefined()
  })
})
