import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { closeFakeAgents } from './fake-agent'
import { api } from './helpers'
import { cachesExpire, httpAgent, viaEdge } from './http-agent'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { edgeStatusController } from '../../src/controllers/edge-status'
import { podManifest } from '../helpers'

// A namespace editor's Ingress for another tenant's host, played against the edge: the host stays
// its first claimant's, the later claim is reported and not served, and an old Ingress of the
// attacker cannot be edited to take it.

const NODE = 'edge-claims-node'
const ingresses = (ns: string) => `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`
let runner: ControllerRunner | undefined
/** The edge-status controller, one instance for the file (its memory of what it said lives as long). */
const status = () =>
  (runner ??= new ControllerRunner(
    env,
    edgeStatusController({
      address: '127.0.0.1',
      lbDomain: 'localhost',
      apiHosts: ['edgeplane.test'],
    }),
    defaultRunnerOptions,
  ))

afterEach(closeFakeAgents)

/** A pod on NODE, a Service `name` for it, and the Endpoints the endpoints controller would write. */
async function app(ns: string, name: string): Promise<void> {
  const pod = await api(
    'POST',
    `/api/v1/namespaces/${ns}/pods`,
    podManifest(name, { nodeName: NODE }),
  )
  expect(pod.status).toBe(201)
  expect(
    (
      await api('POST', `/api/v1/namespaces/${ns}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { ports: [{ port: 80, targetPort: 8080 }] },
      })
    ).status,
  ).toBe(201)
  const address = {
    ip: '10.244.0.9',
    nodeName: NODE,
    targetRef: { kind: 'Pod', namespace: ns, name, uid: pod.json.metadata.uid },
  }
  const eps = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name },
    subsets: [{ addresses: [address], ports: [{ port: 8080 }] }],
  }
  expect((await api('POST', `/api/v1/namespaces/${ns}/endpoints`, eps)).status).toBe(201)
}

function ingress(name: string, host: string, path: string, service: string) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name },
    spec: {
      ingressClassName: 'edgeplane',
      rules: [
        {
          host,
          http: {
            paths: [
              {
                path,
                pathType: 'Prefix',
                backend: { service: { name: service, port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  }
}

beforeAll(async () => {
  for (const ns of ['victim', 'attacker'])
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns },
        })
      ).status,
    ).toBe(201)
  await app('victim', 'web')
  await app('attacker', 'phish')
  // The attacker's own Ingress, older than the victim's (creation times are in seconds).
  expect(
    (await api('POST', ingresses('attacker'), ingress('own', 'attacker.example', '/', 'phish')))
      .status,
  ).toBe(201)
  await new Promise((r) => setTimeout(r, 1_100))
  const victim = await api(
    'POST',
    ingresses('victim'),
    ingress('shop', 'shop.example.com', '/', 'web'),
  )
  expect(victim.status).toBe(201)
  expect(victim.headers.get('Warning')).toBeNull()
})

describe("an Ingress claiming another namespace's host", () => {
  it('is admitted with a warning, not served, reported by an event and given no address; the victim keeps its traffic', async () => {
    const { opened } = await httpAgent(NODE)
    await status().pass()
    const before = (await api('GET', `${ingresses('victim')}/shop`)).json
    expect(before.status.loadBalancer).toEqual({ ingress: [{ ip: '127.0.0.1' }] })

    // An established host: the attacker's claim comes in a later second (a tie would go by uid).
    await new Promise((r) => setTimeout(r, 1_100))
    const attack = await api(
      'POST',
      ingresses('attacker'),
      ingress('login', 'shop.example.com', '/login', 'phish'),
    )
    expect(attack.status).toBe(201)
    expect(attack.headers.get('Warning')).toBe(
      '299 - "Ingress not served at the edge: host \\"shop.example.com\\" is already claimed by an Ingress of another namespace"',
    )

    await cachesExpire()
    const credentials = { Cookie: 'session=victim-secret', Authorization: 'Bearer victim-token' }
    const login = await viaEdge('shop.example.com', '/login', credentials)
    expect(login).toEqual({ status: 200, body: 'victim/web /login' })
    expect(opened.map((o) => `${o.namespace}/${o.pod}`)).toEqual(['victim/web'])
    expect(opened[0]!.headers).toContainEqual(['cookie', 'session=victim-secret'])

    await status().pass()
    const attacked = (await api('GET', `${ingresses('attacker')}/login`)).json
    expect(attacked.status?.loadBalancer?.ingress).toBeUndefined()
    expect((await api('GET', `${ingresses('attacker')}/own`)).json.status.loadBalancer).toEqual({
      ingress: [{ ip: '127.0.0.1' }],
    })
    const events = (await api('GET', '/api/v1/namespaces/attacker/events')).json.items.filter(
      (e: any) => e.involvedObject.name === 'login',
    )
    expect(events.map((e: any) => [e.type, e.reason, e.message])).toEqual([
      [
        'Warning',
        'HostClaimed',
        'Ingress not served at the edge: host "shop.example.com" is already claimed by an Ingress of another namespace',
      ],
    ])
    // A second pass says it no more.
    await status().pass()
    expect(
      (await api('GET', '/api/v1/namespaces/attacker/events')).json.items
        .filter((e: any) => e.involvedObject.name === 'login')
        .map((e: any) => e.count),
    ).toEqual([1])

    // Nothing of the victim's changed, and its next ordinary request is served as before.
    const after = (await api('GET', `${ingresses('victim')}/shop`)).json
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(after.status).toEqual(before.status)
    expect(await viaEdge('shop.example.com', '/cart')).toEqual({
      status: 200,
      body: 'victim/web /cart',
    })
    // The attacker's own host is still theirs.
    expect(await viaEdge('attacker.example', '/')).toEqual({
      status: 200,
      body: 'attacker/phish /',
    })
    expect(opened.map((o) => `${o.namespace}/${o.pod}`)).toEqual([
      'victim/web',
      'victim/web',
      'attacker/phish',
    ])
  })

  it("refuses to edit an older Ingress of the attacker's to claim the host, and changes nothing", async () => {
    const { opened } = await httpAgent(NODE)
    const own = (await api('GET', `${ingresses('attacker')}/own`)).json
    const grown = {
      ...own,
      spec: {
        ...own.spec,
        rules: [
          ...own.spec.rules,
          ingress('x', 'shop.example.com', '/login', 'phish').spec.rules[0],
        ],
      },
    }
    const put = await api('PUT', `${ingresses('attacker')}/own`, grown)
    expect(put.status).toBe(403)
    expect(put.json.reason).toBe('Forbidden')
    expect(put.json.message).toBe(
      'ingresses.networking.k8s.io "own" is forbidden: this change would take host "shop.example.com" from an Ingress of another namespace, which claimed it before this Ingress did',
    )
    const patch = await api(
      'PATCH',
      `${ingresses('attacker')}/own`,
      { spec: { rules: [{ host: '*.example.com', http: own.spec.rules[0].http }] } },
      'application/merge-patch+json',
    )
    expect(patch.status).toBe(403)
    expect(patch.json.message).toContain(
      'this change would stop the edge serving an Ingress of another namespace',
    )
    expect((await api('GET', `${ingresses('attacker')}/own`)).json.metadata.resourceVersion).toBe(
      own.metadata.resourceVersion,
    )

    await cachesExpire()
    expect(await viaEdge('shop.example.com', '/login')).toEqual({
      status: 200,
      body: 'victim/web /login',
    })
    // An ordinary edit of the same Ingress goes through.
    const labelled = await api(
      'PATCH',
      `${ingresses('attacker')}/own`,
      { metadata: { labels: { tier: 'front' } } },
      'application/merge-patch+json',
    )
    expect(labelled.status).toBe(200)
    expect(labelled.headers.get('Warning')).toBeNull()
    expect(opened.map((o) => `${o.namespace}/${o.pod}`)).toEqual(['victim/web'])
  })
})

describe('the client address at the edge', () => {
  it("passes CF-Connecting-IP on as X-Forwarded-For, X-Real-IP and Forwarded, and none of the client's own", async () => {
    const { opened } = await httpAgent(NODE)
    const forged = {
      'X-Forwarded-For': '6.6.6.6',
      'X-Real-IP': '6.6.6.6',
      Forwarded: 'for=6.6.6.6',
      'X-Forwarded-Host': 'evil.example',
      'True-Client-IP': '6.6.6.6',
    }
    expect(
      (await viaEdge('shop.example.com', '/ip', { ...forged, 'CF-Connecting-IP': '203.0.113.7' }))
        .status,
    ).toBe(200)
    const told = (name: string) =>
      opened[0]!.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v)
    expect(told('X-Forwarded-For')).toEqual(['203.0.113.7'])
    expect(told('X-Real-IP')).toEqual(['203.0.113.7'])
    expect(told('Forwarded')).toEqual(['for=203.0.113.7;host="shop.example.com";proto=https'])
    expect(told('X-Forwarded-Host')).toEqual(['shop.example.com'])
    expect(told('True-Client-IP')).toEqual([])
    expect(JSON.stringify(opened[0]!.headers)).not.toContain('6.6.6.6')
    // Without CF-Connecting-IP the app is told no address at all.
    expect((await viaEdge('shop.example.com', '/ip', forged)).status).toBe(200)
    expect(
      opened[1]!.headers.filter(([n]) =>
        ['x-forwarded-for', 'x-real-ip', 'forwarded'].includes(n.toLowerCase()),
      ),
    ).toEqual([])
  })
})
