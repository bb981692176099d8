import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import {
  apiHostnames,
  hostOwnership,
  parseSharedHosts,
  type ClaimSettings,
} from '../../../src/apis/host-ownership'
import { takenByWrite } from '../../../src/apis/host-takeover'
import { buildRoutes, matchRoute, type EdgeSettings } from '../../../src/apis/ingress-routes'

const settings = (over: Partial<ClaimSettings> = {}): EdgeSettings => ({
  edgeIsDefault: true,
  lbDomain: 'localhost',
  apiHosts: [],
  shared: new Map(),
  ...over,
})
const backend = (service: string) => ({ service: { name: service, port: { number: 80 } } })

/** An Ingress in `ns` created at second `at` of the day, with rules `host → path → service`. */
function ingress(
  ns: string,
  name: string,
  at: number,
  rules: Array<[string | undefined, string, string]>,
  extra: Record<string, unknown> = {},
): KubeObject {
  const byHost = new Map<
    string | undefined,
    Array<{ path: string; pathType: string; backend: ReturnType<typeof backend> }>
  >()
  for (const [host, path, service] of rules)
    byHost.set(host, [
      ...(byHost.get(host) ?? []),
      { path, pathType: 'Prefix', backend: backend(service) },
    ])
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      namespace: ns,
      name,
      uid: `uid-${ns}-${name}`,
      creationTimestamp: `2026-01-01T00:00:${String(at).padStart(2, '0')}Z`,
    },
    spec: {
      rules: [...byHost].map(([host, paths]) => ({ ...(host ? { host } : {}), http: { paths } })),
      ...extra,
    },
  }
}

const refusedOf = (list: KubeObject[], s: EdgeSettings = settings()) =>
  hostOwnership(list, s).refused

describe('host ownership at the edge', () => {
  const victim = ingress('shop', 'web', 10, [['shop.example.com', '/', 'web']])
  const attacker = ingress('evil', 'login', 20, [['Shop.Example.com', '/login', 'phish']])

  it('leaves a host to the namespace that claimed it first; a later claim from another namespace is refused', () => {
    const own = hostOwnership([attacker, victim], settings())
    expect(own.owners.get('shop.example.com')).toEqual(['shop'])
    expect(own.refused.get('evil/login')).toEqual([
      'host "shop.example.com" is already claimed by an Ingress of another namespace',
    ])
    expect(own.refused.has('shop/web')).toBe(false)
    const table = buildRoutes([attacker, victim], [], settings())
    expect(matchRoute(table, 'shop.example.com', '/login')).toEqual({
      namespace: 'shop',
      service: 'web',
      port: '80',
    })
    expect(matchRoute(table, 'shop.example.com', '/')).toEqual({
      namespace: 'shop',
      service: 'web',
      port: '80',
    })
  })

  it('merges the rules of one namespace, and breaks a tie of creation times by uid', () => {
    const more = ingress('shop', 'api', 30, [['shop.example.com', '/api', 'api']])
    expect(refusedOf([victim, more]).size).toBe(0)
    const a = {
      ...ingress('a', 'x', 5, [['tie.example', '/', 'a']]),
      metadata: { ...ingress('a', 'x', 5, []).metadata, uid: 'ffff' },
    }
    const b = {
      ...ingress('b', 'x', 5, [['tie.example', '/', 'b']]),
      metadata: { ...ingress('b', 'x', 5, []).metadata, uid: '0000' },
    }
    expect([...refusedOf([a, b]).keys()]).toEqual(['a/x'])
  })

  it('decides each host on its own, a claim counting from its Ingress creation even while that Ingress is refused', () => {
    const squat = ingress('evil', 'both', 5, [
      ['taken.example', '/', 'x'],
      ['new.example', '/', 'x'],
    ])
    const holder = ingress('other', 'held', 1, [['taken.example', '/', 'y']])
    const late = ingress('shop', 'new', 9, [['new.example', '/', 'z']])
    const refused = refusedOf([squat, holder, late])
    expect(refused.get('evil/both')).toEqual([
      'host "taken.example" is already claimed by an Ingress of another namespace',
    ])
    expect(refused.get('shop/new')).toEqual([
      'host "new.example" is already claimed by an Ingress of another namespace',
    ])
  })

  it('lets an admin share a host with any namespace, or with the namespaces named', () => {
    expect(parseSharedHosts('a.example,b.example  shop.example.com=shop+auth')).toEqual(
      new Map<string, unknown>([
        ['a.example', 'any'],
        ['b.example', 'any'],
        ['shop.example.com', new Set(['shop', 'auth'])],
      ]),
    )
    const auth = ingress('auth', 'login', 15, [['shop.example.com', '/login', 'sso']])
    const shared = settings({ shared: parseSharedHosts('shop.example.com=shop+auth') })
    const own = hostOwnership([victim, auth, attacker], shared)
    expect(own.owners.get('shop.example.com')).toEqual(['shop', 'auth'])
    expect([...own.refused.keys()]).toEqual(['evil/login'])
    expect(
      matchRoute(buildRoutes([victim, auth, attacker], [], shared), 'shop.example.com', '/login')
        ?.namespace,
    ).toBe('auth')
    expect(
      refusedOf([victim, attacker], settings({ shared: parseSharedHosts('shop.example.com') }))
        .size,
    ).toBe(0)
  })

  it('keeps an exact host under an older wildcard of another namespace from taking its traffic', () => {
    const wildcard = ingress('tenants', 'all', 10, [['*.apps.example', '/', 'router']])
    const under = ingress('evil', 'one', 20, [['a.apps.example', '/login', 'phish']])
    const earlier = ingress('team', 'b', 5, [['b.apps.example', '/', 'b']])
    const deeper = ingress('other', 'deep', 20, [['x.a.apps.example', '/', 'deep']])
    const refused = refusedOf([wildcard, under, earlier, deeper])
    expect(refused.get('evil/one')).toEqual([
      'host "a.apps.example" falls under "*.apps.example", already claimed by an Ingress of another namespace',
    ])
    expect(refused.has('team/b')).toBe(false)
    expect(refused.has('other/deep')).toBe(false)
    const table = buildRoutes([wildcard, under, earlier], [], settings())
    expect(matchRoute(table, 'a.apps.example', '/login')?.namespace).toBe('tenants')
    expect(matchRoute(table, 'b.apps.example', '/')?.namespace).toBe('team')
    // A wildcard claimed later than an exact host of another namespace leaves that host alone.
    expect(
      refusedOf([
        ingress('late', 'w', 30, [['*.example.org', '/', 'w']]),
        ingress('first', 'x', 1, [['x.example.org', '/', 'x']]),
      ]).size,
    ).toBe(0)
  })

  it('gives the catch-all (rules without a host, the default backend) to one namespace, whose default backend serves no other namespace host', () => {
    const fallback = ingress('catch', 'all', 1, [], { defaultBackend: backend('fallback') })
    const hostless = ingress('evil', 'any', 2, [[undefined, '/login', 'phish']])
    expect(refusedOf([fallback, hostless]).get('evil/any')).toEqual([
      "rules without a host and the default backend (the edge's catch-all) are already claimed by an Ingress of another namespace",
    ])
    const partial = ingress('shop', 'app', 3, [['shop.example.com', '/app', 'web']])
    const table = buildRoutes([fallback, hostless, partial], [], settings())
    expect(matchRoute(table, 'shop.example.com', '/login')).toBeUndefined()
    expect(matchRoute(table, 'other.example', '/login')?.namespace).toBe('catch')
  })

  it("never serves the API server's own hostnames, and keeps LoadBalancer hostnames to their namespace", () => {
    expect(apiHostnames(' API.example.com, k8s.example.com:443 ', undefined)).toEqual([
      'api.example.com',
      'k8s.example.com',
    ])
    expect(apiHostnames(undefined, '127.0.0.1:8443')).toEqual(['127.0.0.1', 'localhost'])
    expect(apiHostnames(undefined, '[2001:db8::1]:443')).toEqual(['2001:db8::1'])
    const api = ingress('evil', 'api', 1, [['localhost', '/', 'x']])
    const lb = ingress('evil', 'lb', 1, [['web.shop.localhost', '/', 'x']])
    const lbWild = ingress('evil', 'lbw', 1, [['*.shop.localhost', '/', 'x']])
    const own = ingress('shop', 'lb', 1, [['web.shop.localhost', '/', 'x']])
    const refused = refusedOf(
      [api, lb, lbWild, own],
      settings({ apiHosts: apiHostnames(undefined, '127.0.0.1:8443') }),
    )
    expect(refused.get('evil/api')).toEqual([
      `host "localhost" is the API server's own and is never served at the edge`,
    ])
    expect(refused.get('evil/lb')).toEqual([
      'host "web.shop.localhost" is reserved for the LoadBalancer Services of namespace "shop"',
    ])
    expect(refused.get('evil/lbw')).toEqual([
      'host "*.shop.localhost" is reserved for the LoadBalancer Services of namespace "shop"',
    ])
    expect(refused.has('shop/lb')).toBe(false)
  })

  it('tells an update that would take a host (or the serving of an Ingress) from another namespace', () => {
    const old = ingress('evil', 'old', 1, [['evil.example', '/', 'x']])
    const grown = ingress('evil', 'old', 1, [
      ['evil.example', '/', 'x'],
      ['shop.example.com', '/login', 'phish'],
    ])
    expect(takenByWrite([old, victim], grown, settings())).toBe(
      'this change would take host "shop.example.com" from an Ingress of another namespace, which claimed it before this Ingress did',
    )
    // A wildcard above the victim's host, dated by the old Ingress's creation, would come before it.
    const above = ingress('evil', 'old', 1, [['*.example.com', '/', 'x']])
    expect(takenByWrite([old, victim], above, settings())).toBe(
      'this change would stop the edge serving an Ingress of another namespace, which claimed its hosts before this Ingress did',
    )
    expect(
      takenByWrite(
        [old, victim],
        ingress('evil', 'old', 1, [
          ['evil.example', '/', 'x'],
          ['more.example', '/', 'y'],
        ]),
        settings(),
      ),
    ).toBeUndefined()
    // Its own namespace's changes, and a newer Ingress's claims, take nothing.
    expect(
      takenByWrite([victim, attacker], { ...victim, spec: { rules: [] } }, settings()),
    ).toBeUndefined()
    expect(
      takenByWrite(
        [victim, attacker],
        { ...attacker, metadata: { ...attacker.metadata, labels: { a: 'b' } } },
        settings(),
      ),
    ).toBeUndefined()
  })
})
