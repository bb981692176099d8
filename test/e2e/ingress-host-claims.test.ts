import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { kubectlOn } from './helpers/kubectl'
import { stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { sleep, waitFor } from './helpers/wait'

// One tenant's host played for by another: a namespace editor of `attacker` adds an Ingress for
// `shop.example.com` `/login`, which namespace `victim` serves. Through the launcher's ingress
// port, the victim's requests (cookies included) still reach the victim's pod only.

const NODE = 'e2e-host-claims-node'
let server: TestServer
let agent: AgentProcess
let ingressPort = 0
let editorToken = ''
const { run, ok } = kubectlOn(() => server.kubeconfig)
const asEditor = (args: string[], stdin?: string) =>
  run([`--token=${editorToken}`, '-n', 'attacker', ...args], stdin)

/** Answers with its name, the path and what it was told of the client and its cookies. */
const httpServer = `
const name = process.argv[1]
require('http').createServer((q, s) => s.end(JSON.stringify({ name, url: q.url, cookie: q.headers.cookie, xff: q.headers['x-forwarded-for'], realIp: q.headers['x-real-ip'], forwarded: q.headers.forwarded, cfIp: q.headers['cf-connecting-ip'] }))).listen(Number(process.argv[2]), '127.0.0.1')`

function app(ns: string, name: string, port: number): Manifest[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels: { app: name } },
      spec: {
        nodeName: NODE,
        containers: [
          {
            name: 'web',
            image: 'node',
            command: [process.execPath, '-e', httpServer, `${ns}/${name}`, String(port)],
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns },
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: port }] },
    },
  ]
}

const ingress = (name: string, host: string, path: string, service: string): Manifest => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name },
  spec: {
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
})

interface Answer {
  status: number
  body: string
  json?: Record<string, string | undefined>
}

function viaEdge(
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: ingressPort,
        path,
        headers: { ...headers, Host: host },
        agent: false,
      },
      (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => {
          let json
          try {
            json = JSON.parse(body)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, body, json })
        })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  ingressPort = await freePort()
  server = await startServer({ env: { EDGEPLANE_INGRESS_PORT: String(ingressPort) } })
  agent = startNodeAgent(server.kubeconfig, NODE)
  await ok(['create', 'namespace', 'victim'])
  await ok(['create', 'namespace', 'attacker'])
  await ok(['create', 'serviceaccount', 'editor', '-n', 'attacker'])
  await ok([
    'create',
    'rolebinding',
    'editor',
    '--clusterrole=edit',
    '--serviceaccount=attacker:editor',
    '-n',
    'attacker',
  ])
  editorToken = (await ok(['create', 'token', 'editor', '-n', 'attacker'])).stdout.trim()
  await ok(
    ['apply', '-f', '-'],
    stream(
      ...app('victim', 'web', await freePort()),
      ...app('attacker', 'phish', await freePort()),
    ),
  )
  // An Ingress of the attacker's older than the victim's (creation times are in seconds).
  const old = await asEditor(
    ['apply', '-f', '-'],
    stream(ingress('old', 'old.attacker.example', '/', 'phish')),
  )
  expect(old.code, old.stderr).toBe(0)
  await sleep(1_100)
  await ok(
    ['apply', '-n', 'victim', '-f', '-'],
    stream(ingress('shop', 'shop.example.com', '/', 'web')),
  )
  try {
    await waitFor(
      async () => (await viaEdge('shop.example.com', '/')).json?.name === 'victim/web',
      { what: "the victim's host served", timeoutMs: 60_000, intervalMs: 250 },
    )
    await waitFor(
      async () =>
        (
          await ok([
            'get',
            'endpoints',
            'phish',
            '-n',
            'attacker',
            '-o',
            'jsonpath={.subsets[*].addresses[*].ip}',
          ])
        ).stdout.trim() !== '',
      { what: "the attacker's endpoint", timeoutMs: 60_000, intervalMs: 250 },
    )
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
  }
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe("a namespace editor's Ingress for another tenant's host", () => {
  it("is admitted with a warning, serves nothing, is reported, and leaves the victim's traffic and Ingress as they were", async () => {
    const victimBefore = (
      await ok([
        'get',
        'ingress',
        'shop',
        '-n',
        'victim',
        '-o',
        'jsonpath={.metadata.resourceVersion} {.status.loadBalancer.ingress[0].ip}',
      ])
    ).stdout
    expect(victimBefore).toMatch(/^\d+ 127\.0\.0\.1$/)
    // The victim's host is established: the claim comes at least a second later.
    await sleep(1_100)
    const attack = await asEditor(
      ['apply', '-f', '-'],
      stream(ingress('login', 'shop.example.com', '/login', 'phish')),
    )
    expect(attack.code, attack.stderr).toBe(0)
    expect(attack.stderr).toContain(
      'Warning: Ingress not served at the edge: host "shop.example.com" is already claimed by an Ingress of another namespace',
    )

    const reason = await waitFor(
      async () =>
        (
          await ok([
            'get',
            'events',
            '-n',
            'attacker',
            '--field-selector',
            'reason=HostClaimed,involvedObject.name=login',
            '-o',
            'jsonpath={.items[*].type} {.items[*].message}',
          ])
        ).stdout.trim() || undefined,
      { what: 'the HostClaimed event', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(reason).toBe(
      'Warning Ingress not served at the edge: host "shop.example.com" is already claimed by an Ingress of another namespace',
    )
    expect(
      (
        await ok([
          'get',
          'ingress',
          'login',
          '-n',
          'attacker',
          '-o',
          'jsonpath={.status.loadBalancer.ingress}',
        ])
      ).stdout,
    ).toBe('')
    expect((await ok(['get', 'ingress', 'login', '-n', 'attacker'])).stdout).toMatch(
      /^login\s+edgeplane\s+shop\.example\.com\s+80\s/m,
    )

    // An ordinary Ingress of the attacker's, made after the claim, is served: the edge's routes are
    // now read past the claim.
    const own = await asEditor(
      ['apply', '-f', '-'],
      stream(ingress('own', 'attacker.example', '/', 'phish')),
    )
    expect(own.code, own.stderr).toBe(0)
    expect(own.stderr).toBe('')
    const served = await waitFor(async () => (await viaEdge('attacker.example', '/')).json, {
      what: "the attacker's own host",
      timeoutMs: 20_000,
      intervalMs: 250,
    })
    expect(served.name).toBe('attacker/phish')
    // With those routes, the victim's /login, cookie and all, still reaches the victim only.
    for (let i = 0; i < 5; i++) {
      const login = await viaEdge('shop.example.com', '/login', { Cookie: 'session=victim-secret' })
      expect(login.json).toMatchObject({
        name: 'victim/web',
        url: '/login',
        cookie: 'session=victim-secret',
      })
    }
    expect(
      (
        await ok([
          'get',
          'ingress',
          'shop',
          '-n',
          'victim',
          '-o',
          'jsonpath={.metadata.resourceVersion} {.status.loadBalancer.ingress[0].ip}',
        ])
      ).stdout,
    ).toBe(victimBefore)
    // The next ordinary request works.
    expect((await viaEdge('shop.example.com', '/cart')).json).toMatchObject({
      name: 'victim/web',
      url: '/cart',
    })
  })

  it("refuses to let an older Ingress be edited to take the host; a newer one so edited is not served; the API's host is never claimed", async () => {
    const taken = await asEditor([
      'patch',
      'ingress',
      'old',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/rules/0/host', value: 'shop.example.com' }]),
    ])
    expect(taken.code).toBe(1)
    expect(taken.stderr.trim()).toBe(
      'Error from server (Forbidden): ingresses.networking.k8s.io "old" is forbidden: this change would take host "shop.example.com" from an Ingress of another namespace, which claimed it before this Ingress did',
    )
    expect(
      (
        await ok([
          'get',
          'ingress',
          'old',
          '-n',
          'attacker',
          '-o',
          'jsonpath={.spec.rules[0].host}',
        ])
      ).stdout,
    ).toBe('old.attacker.example')
    const api = await asEditor(['create', 'ingress', 'api', '--rule=localhost/*=phish:80'])
    expect(api.code, api.stderr).toBe(0)
    expect(api.stderr).toContain(
      `Warning: Ingress not served at the edge: host "localhost" is the API server's own and is never served at the edge`,
    )
    const newer = await asEditor([
      'patch',
      'ingress',
      'own',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/rules/0/host', value: 'shop.example.com' }]),
    ])
    expect(newer.code, newer.stderr).toBe(0)
    expect(newer.stderr).toContain(
      'Warning: Ingress not served at the edge: host "shop.example.com" is already claimed by an Ingress of another namespace',
    )
    // The edited Ingress's old host goes unserved once the edge's routes are read past both writes.
    await waitFor(async () => (await viaEdge('attacker.example', '/')).status === 404, {
      what: 'attacker.example no longer served',
      timeoutMs: 20_000,
      intervalMs: 250,
    })
    expect((await viaEdge('shop.example.com', '/login')).json).toMatchObject({ name: 'victim/web' })
    expect((await viaEdge('localhost', '/')).status).toBe(404)
  })
})

describe('the client address through the local ingress port', () => {
  it("is the socket's peer, whatever the client says", async () => {
    const forged = {
      'X-Forwarded-For': '6.6.6.6',
      'X-Real-IP': '6.6.6.6',
      Forwarded: 'for=6.6.6.6',
      'CF-Connecting-IP': '6.6.6.6',
    }
    const seen = (await viaEdge('shop.example.com', '/ip', forged)).json
    expect(seen).toMatchObject({
      name: 'victim/web',
      xff: '127.0.0.1',
      realIp: '127.0.0.1',
      forwarded: 'for=127.0.0.1;host="shop.example.com";proto=http',
      cfIp: '127.0.0.1',
    })
  })
})
