import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, joinNode } from './helpers'
import { closeFakeAgents } from './fake-agent'
import { httpAgent, viaEdge } from './http-agent'
import { podManifest } from '../helpers'

/**
 * Every route family played with every way of writing its path: a variant that means the same
 * path must get the same answer as the plain path, and one whose decoding would change its
 * meaning is refused (400 or 404) before anything acts on it. Never is a variant allowed where
 * the plain path is forbidden.
 */

const rbac = 'rbac.authorization.k8s.io'

/** Ways of writing one path: each keeps its meaning, or is refused. */
function variants(path: string): { how: string; path: string; same: boolean }[] {
  const segs = path.split('/').slice(1)
  const enc = (s: string, i: number) =>
    s.slice(0, i) + '%' + s.charCodeAt(i).toString(16).padStart(2, '0') + s.slice(i + 1)
  const at = (i: number, f: (s: string) => string) =>
    '/' + segs.map((s, j) => (j === i ? f(s) : s)).join('/')
  const out: { how: string; path: string; same: boolean }[] = []
  segs.forEach((s, i) => {
    if (!s) return
    out.push({
      how: `segment ${i}: last character encoded`,
      path: at(i, (x) => enc(x, x.length - 1)),
      same: true,
    })
    out.push({
      how: `segment ${i}: first character encoded, upper-case hex`,
      path: at(i, (x) => enc(x, 0).replace(/^%(..)/, (m) => m.toUpperCase())),
      same: true,
    })
    out.push({
      how: `segment ${i}: every character encoded`,
      path: at(i, (x) =>
        [...x]
          .map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))
          .join(''),
      ),
      same: true,
    })
    out.push({ how: `segment ${i}: preceded by ./`, path: at(i, (x) => `./${x}`), same: true })
    out.push({
      how: `segment ${i}: preceded by x/../`,
      path: at(i, (x) => `x/../${x}`),
      same: true,
    })
    out.push({
      how: `segment ${i}: preceded by %2e%2e-climb`,
      path: at(i, (x) => `x/%2e%2e/${x}`),
      same: true,
    })
    out.push({
      how: `segment ${i}: doubled slash before`,
      path: at(i, (x) => `/${x}`),
      same: false,
    })
    out.push({ how: `segment ${i}: ..%2f before`, path: at(i, (x) => `..%2f${x}`), same: false })
    if (i + 1 < segs.length)
      out.push({
        how: `segments ${i}-${i + 1}: joined by %2F`,
        path: '/' + [...segs.slice(0, i), `${s}%2F${segs[i + 1]}`, ...segs.slice(i + 2)].join('/'),
        same: false,
      })
  })
  out.push({ how: 'trailing slash', path: `${path}/`, same: true })
  return out
}

async function call(tok: string, method: string, path: string, upgrade = false): Promise<number> {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${tok}`,
      ...(upgrade ? { Upgrade: 'websocket', 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' } : {}),
    },
  })
  if (res.webSocket) {
    res.webSocket.accept()
    res.webSocket.close(1000, 'done')
  } else await res.arrayBuffer()
  return res.status
}

async function saToken(namespace: string, name: string): Promise<string> {
  expect(
    (
      await api('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name },
      })
    ).status,
  ).toBe(201)
  const tr = await api('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: {},
  })
  expect(tr.status).toBe(201)
  return tr.json.status.token as string
}

let nobody = ''
let urlReader = ''
let n1 = ''
let n2 = ''

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
  expect(
    (
      await api('POST', '/api/v1/namespaces/victim/secrets', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'topsecret' },
        stringData: { password: 'hunter2' },
      })
    ).status,
  ).toBe(201)
  expect(
    (
      await api(
        'POST',
        '/api/v1/namespaces/victim/pods',
        podManifest('victim', {
          containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }],
        }),
      )
    ).status,
  ).toBe(201)
  expect(
    (
      await api('POST', '/api/v1/namespaces/victim/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { ports: [{ port: 80 }] },
      })
    ).status,
  ).toBe(201)
  nobody = await saToken('attacker', 'nobody')
  urlReader = await saToken('attacker', 'url-reader')
  await api('POST', `/apis/${rbac}/v1/clusterroles`, {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'every-url' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['*'] }],
  })
  await api('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'every-url' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'every-url' },
    subjects: [{ kind: 'ServiceAccount', name: 'url-reader', namespace: 'attacker' }],
  })
  n1 = await joinNode('parse-n1')
  n2 = await joinNode('parse-n2')
})

describe('one reading of every request', () => {
  const families: {
    family: string
    method: string
    path: string
    who: () => string
    upgrade?: boolean
  }[] = [
    {
      family: 'a resource',
      method: 'GET',
      path: '/api/v1/namespaces/victim/secrets/topsecret',
      who: () => nobody,
    },
    {
      family: 'a collection',
      method: 'GET',
      path: '/api/v1/namespaces/kube-system/secrets',
      who: () => nobody,
    },
    {
      family: 'a group resource',
      method: 'GET',
      path: '/apis/apps/v1/namespaces/victim/deployments',
      who: () => nobody,
    },
    {
      family: 'a subresource',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/status',
      who: () => nobody,
    },
    {
      family: 'a write',
      method: 'DELETE',
      path: '/api/v1/namespaces/victim/secrets/topsecret',
      who: () => nobody,
    },
    {
      family: 'exec',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/exec?command=id&stdout=1',
      who: () => nobody,
      upgrade: true,
    },
    {
      family: 'attach',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/attach?stdout=1',
      who: () => nobody,
      upgrade: true,
    },
    {
      family: 'port-forward',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/portforward?ports=80',
      who: () => nobody,
      upgrade: true,
    },
    {
      family: 'log',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/log',
      who: () => nobody,
    },
    {
      family: 'pod proxy',
      method: 'GET',
      path: '/api/v1/namespaces/victim/pods/victim/proxy/admin',
      who: () => nobody,
    },
    {
      family: 'service proxy',
      method: 'GET',
      path: '/api/v1/namespaces/victim/services/web/proxy/',
      who: () => nobody,
    },
    { family: 'a non-resource URL', method: 'GET', path: '/metrics', who: () => nobody },
    {
      family: "another node's tunnel",
      method: 'GET',
      path: '/agent/v1/nodes/parse-n1/tunnel',
      who: () => n2,
      upgrade: true,
    },
    {
      family: 'a tunnel by a URL grant',
      method: 'GET',
      path: '/agent/v1/nodes/parse-n1/tunnel',
      who: () => urlReader,
      upgrade: true,
    },
  ]

  it.each(families)(
    "$family: every encoding gets the plain path's refusal",
    async ({ method, path, who, upgrade }) => {
      const [pathPart, query] = path.split('?')
      const plain = await call(who(), method, path, upgrade)
      expect(plain).toBe(403)
      for (const v of variants(pathPart!)) {
        const got = await call(who(), method, v.path + (query ? `?${query}` : ''), upgrade)
        if (v.same) expect([v.how, v.path, got]).toEqual([v.how, v.path, 403])
        else expect([v.how, v.path, [400, 403, 404].includes(got)]).toEqual([v.how, v.path, true])
      }
      // Nothing was changed, and an ordinary request still works.
      const secret = await api('GET', '/api/v1/namespaces/victim/secrets/topsecret')
      expect(secret.status).toBe(200)
    },
    60_000,
  )

  it('serves what is allowed the same whichever way its path is written', async () => {
    const plain = await api('GET', '/api/v1/namespaces/victim/secrets/topsecret')
    for (const v of variants('/api/v1/namespaces/victim/secrets/topsecret').filter((v) => v.same)) {
      const res = await api('GET', v.path)
      expect([v.how, res.status, res.json.metadata?.uid]).toEqual([
        v.how,
        200,
        plain.json.metadata.uid,
      ])
    }
    expect(await call(n1, 'GET', '/agent/v1/nodes/parse-n%31/tunnel', true)).toBe(101)
  }, 60_000)
})

describe('a node credential', () => {
  it('is never minted for a grant of every URL, so no such grant reaches a tunnel', async () => {
    const everything = await saToken('attacker', 'every-verb')
    await api('POST', `/apis/${rbac}/v1/clusterroles`, {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'every-url-verb' },
      rules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    })
    await api('POST', `/apis/${rbac}/v1/clusterrolebindings`, {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'every-url-verb' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'every-url-verb' },
      subjects: [{ kind: 'ServiceAccount', name: 'every-verb', namespace: 'attacker' }],
    })
    const tokens = async () =>
      (
        await api(
          'GET',
          '/api/v1/namespaces/kube-system/secrets?fieldSelector=type%3Dedgeplane.io%2Fnode-token',
        )
      ).json.items.length
    const before = await tokens()
    for (const path of [
      '/agent/v1/nodes/parse-n1/credential',
      '/agent/v%31/nodes/parse-n1/credential',
    ])
      expect([path, await call(everything, 'POST', path)]).toEqual([path, 403])
    expect(await tokens()).toBe(before)
    // The node's own agent keeps its tunnel.
    expect(await call(n1, 'GET', '/agent/v1/nodes/parse-n1/tunnel', true)).toBe(101)
  }, 30_000)
})

describe('WebSocket streams into a pod', () => {
  beforeAll(async () => {
    await api('POST', `/apis/${rbac}/v1/namespaces/victim/roles`, {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: 'exec-get' },
      rules: [
        {
          verbs: ['get'],
          apiGroups: [''],
          resources: ['pods', 'pods/exec', 'pods/attach', 'pods/portforward'],
        },
      ],
    })
    await api('POST', `/apis/${rbac}/v1/namespaces/victim/rolebindings`, {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'exec-get' },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'exec-get' },
      subjects: [{ kind: 'ServiceAccount', name: 'nobody', namespace: 'attacker' }],
    })
    await api('POST', `/apis/${rbac}/v1/namespaces/victim/rolebindings`, {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'editor' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'ServiceAccount', name: 'url-reader', namespace: 'attacker' }],
    })
  })

  it('need create as well as get (as kube-apiserver 1.35)', async () => {
    for (const sub of ['exec?command=id&stdout=1', 'attach?stdout=1', 'portforward?ports=80']) {
      const res = await SELF.fetch(
        `https://edgeplane.test/api/v1/namespaces/victim/pods/victim/${sub}`,
        {
          headers: {
            Authorization: `Bearer ${nobody}`,
            Upgrade: 'websocket',
            'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
          },
        },
      )
      expect(res.status).toBe(403)
      expect(((await res.json()) as { message: string }).message).toMatch(
        /cannot create resource "pods\/(exec|attach|portforward)"/,
      )
    }
  })

  it('are authorized against the live policy: an editor reaches the pod', async () => {
    for (const sub of ['exec?command=id&stdout=1', 'portforward?ports=80']) {
      const res = await SELF.fetch(
        `https://edgeplane.test/api/v1/namespaces/victim/pods/victim/${sub}`,
        {
          headers: {
            Authorization: `Bearer ${urlReader}`,
            Upgrade: 'websocket',
            'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
          },
        },
      )
      // Past authorization: the pod has no node yet, which is the handler's answer.
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        400,
        'pod victim does not have a host assigned',
      ])
    }
  })
})

describe('an Ingress path', () => {
  const NODE = 'parse-edge-node'
  const app = async (name: string) => {
    const pod = await api(
      'POST',
      '/api/v1/namespaces/shop/pods',
      podManifest(name, { nodeName: NODE }),
    )
    expect(
      (
        await api('POST', '/api/v1/namespaces/shop/services', {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name },
          spec: { ports: [{ port: 80 }] },
        })
      ).status,
    ).toBe(201)
    const address = {
      ip: '10.244.0.7',
      nodeName: NODE,
      targetRef: { kind: 'Pod', namespace: 'shop', name, uid: pod.json.metadata.uid },
    }
    expect(
      (
        await api('POST', '/api/v1/namespaces/shop/endpoints', {
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { name },
          subsets: [{ addresses: [address], ports: [{ port: 80 }] }],
        })
      ).status,
    ).toBe(201)
  }
  const path = (p: string, service: string) => ({
    path: p,
    pathType: 'Prefix',
    backend: { service: { name: service, port: { number: 80 } } },
  })

  beforeAll(async () => {
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'shop' },
        })
      ).status,
    ).toBe(201)
    await app('front')
    await app('admin')
    const ing = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'shop' },
      spec: {
        ingressClassName: 'edgeplane',
        rules: [
          { host: 'shop.example', http: { paths: [path('/', 'front'), path('/admin', 'admin')] } },
        ],
      },
    }
    expect(
      (await api('POST', '/apis/networking.k8s.io/v1/namespaces/shop/ingresses', ing)).status,
    ).toBe(201)
  })

  afterAll(closeFakeAgents)

  it('is matched as the path it means, whichever way it is written, and forwarded as sent', async () => {
    await httpAgent(NODE)
    const plain = await viaEdge('shop.example', '/admin/panel')
    expect(plain).toEqual({ status: 200, body: 'shop/admin /admin/panel' })
    for (const v of variants('/admin/panel')) {
      const res = await viaEdge('shop.example', v.path)
      // `/admin/..%2fpanel` means `/panel`, as ingress-nginx reads it: the front's.
      const owner = v.path.startsWith('/admin/..%2f') ? 'shop/front' : 'shop/admin'
      expect([v.how, res.status, res.body.split(' ')[0]]).toEqual([v.how, 200, owner])
    }
    expect((await viaEdge('shop.example', '/shop')).body).toBe('shop/front /shop')
    expect((await viaEdge('shop.example', '/%ZZ')).status).toBe(400)
  }, 60_000)
})
