import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { env, SELF } from 'cloudflare:test'
import { closeFakeAgents, fakeAgent } from './fake-agent'
import { gatewayFor, streamUrl } from '../../durable-objects/node-gateway/client'
import { api, token as adminToken } from './helpers'
import { podManifest, waitFor } from '../helpers'

const enc = new TextEncoder()
const dec = new TextDecoder()
const ns = '/api/v1/namespaces/tunnel'

afterEach(closeFakeAgents)

/** A pod with containers `main` and `side`, on a node if named. */
const twoContainers = (name: string, nodeName?: string, metadata: Record<string, unknown> = {}) =>
  podManifest(name, {
    nodeName,
    containers: [
      { name: 'main', image: 'busybox:1.36' },
      { name: 'side', image: 'busybox:1.36' },
    ],
    metadata,
  })

const get = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`https://edgeplane.test${path}`, {
    headers: { Authorization: `Bearer ${adminToken}`, ...headers },
  })

beforeAll(async () => {
  await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'tunnel' },
  })
  expect((await api('POST', `${ns}/pods`, twoContainers('p1', 'w1'))).status).toBe(201)
  expect(
    (
      await api(
        'POST',
        `${ns}/pods`,
        twoContainers('annotated', 'w1', {
          annotations: { 'kubectl.kubernetes.io/default-container': 'side' },
        }),
      )
    ).status,
  ).toBe(201)
  expect((await api('POST', `${ns}/pods`, twoContainers('pending'))).status).toBe(201)
  expect((await api('POST', `${ns}/pods`, twoContainers('orphan', 'ghost'))).status).toBe(201)
})

describe('pods/log', () => {
  it('answers 404, 400 and 503 without touching an agent', async () => {
    const missing = await get(`${ns}/pods/nope/log`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as any).message).toBe('pods "nope" not found')
    const container = await get(`${ns}/pods/p1/log?container=nope`)
    expect(container.status).toBe(400)
    expect(((await container.json()) as any).message).toBe('container nope is not valid for pod p1')
    const pending = await get(`${ns}/pods/pending/log`)
    expect(pending.status).toBe(400)
    expect(((await pending.json()) as any).message).toBe(
      'container "main" in pod "pending" is waiting to start: ContainerCreating',
    )
    const tail = await get(`${ns}/pods/p1/log?tailLines=-1`)
    expect(tail.status).toBe(422)
    expect(((await tail.json()) as any).message).toBe(
      'PodLogOptions "p1" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    )
    const started = Date.now()
    const offline = await get(`${ns}/pods/orphan/log`)
    expect(offline.status).toBe(503)
    const status = (await offline.json()) as any
    expect(status.reason).toBe('ServiceUnavailable')
    expect(status.message).toBe('error dialing backend: node "ghost" has no connected agent')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('streams the container output from the agent, passing every option on', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen((msg) => {
      agent.data(msg.id, 1, 'line 1\n')
      agent.data(msg.id, 1, 'line 2\n')
      agent.end(msg.id)
    })
    const res = await get(
      `${ns}/pods/p1/log?container=side&tailLines=2&timestamps=true&sinceSeconds=60&limitBytes=100&previous=false`,
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/plain')
    expect(await res.text()).toBe('line 1\nline 2\n')
    const open = agent.messages.find((m) => m.op === 'logs')
    expect(open).toMatchObject({
      op: 'logs',
      namespace: 'tunnel',
      pod: 'p1',
      opts: {
        container: 'side',
        tailLines: 2,
        timestamps: true,
        sinceSeconds: 60,
        limitBytes: 100,
      },
    })
    expect(open.podUid).toMatch(/\w/)
    expect(open.opts.previous).toBeUndefined()
  })

  it('takes the default container from the annotation, else the first', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen((msg) => agent.end(msg.id))
    expect(await (await get(`${ns}/pods/annotated/log`)).text()).toBe('')
    expect(await (await get(`${ns}/pods/p1/log`)).text()).toBe('')
    expect(agent.messages.filter((m) => m.op === 'logs').map((m) => m.opts.container)).toEqual([
      'side',
      'main',
    ])
  })

  it("answers an agent's refusal before any output as 400 BadRequest", async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen((msg) =>
      agent.end(msg.id, { error: 'previous terminated container "main" in pod "p1" not found' }),
    )
    const res = await get(`${ns}/pods/p1/log?previous=true`)
    expect(res.status).toBe(400)
    const status = (await res.json()) as any
    expect(status.reason).toBe('BadRequest')
    expect(status.message).toBe('previous terminated container "main" in pod "p1" not found')
  })

  it('keeps a followed log open until the agent ends it, and cuts at limitBytes', async () => {
    const agent = await fakeAgent('w1')
    let id = -1
    agent.onOpen((msg) => {
      id = msg.id
      agent.data(msg.id, 1, 'first\n')
    })
    const res = await get(`${ns}/pods/p1/log?follow=true`)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    expect(dec.decode((await reader.read()).value)).toBe('first\n')
    agent.data(id, 1, 'second\n')
    expect(dec.decode((await reader.read()).value)).toBe('second\n')
    agent.end(id)
    expect((await reader.read()).done).toBe(true)

    agent.onOpen((msg) => {
      agent.data(msg.id, 1, '0123456789')
      agent.data(msg.id, 1, 'abcdef')
    })
    expect(await (await get(`${ns}/pods/p1/log?limitBytes=12`)).text()).toBe('0123456789ab')
  })

  it('cancels the stream at the agent when its reader goes away', async () => {
    // The reader here is the gateway's client socket (the Worker closes it when the HTTP client
    // leaves; that half is covered end to end, since an in-process fetch does not pass a cancel on).
    const agent = await fakeAgent('w1')
    let id = -1
    agent.onOpen((msg) => {
      id = msg.id
      agent.data(msg.id, 1, 'tick\n')
    })
    const open = {
      op: 'logs',
      podUid: 'u',
      namespace: 'tunnel',
      pod: 'p1',
      opts: { container: 'main', follow: true },
    } as const
    const res = await gatewayFor(env, 'w1').fetch(streamUrl('w1', open), {
      headers: { Upgrade: 'websocket' },
    })
    const reader = res.webSocket!
    reader.binaryType = 'arraybuffer'
    const got: string[] = []
    reader.addEventListener('message', (e) => {
      got.push(typeof e.data === 'string' ? e.data : dec.decode(e.data as ArrayBuffer))
    })
    reader.accept()
    await waitFor(() => got.length > 0, { what: 'the first chunk' })
    expect(got).toEqual(['tick\n'])
    reader.close(1000, 'gone')
    await waitFor(() => agent.messages.find((m) => m.op === 'cancel' && m.id === id), {
      what: 'a cancel at the agent',
    })
  })

  it('ends open streams when the agent disconnects', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen((msg) => agent.data(msg.id, 1, 'partial\n'))
    const res = await get(`${ns}/pods/p1/log?follow=true`)
    const reader = res.body!.getReader()
    expect(dec.decode((await reader.read()).value)).toBe('partial\n')
    agent.close()
    expect((await reader.read()).done).toBe(true)
  })
})

describe('pods/exec', () => {
  const execPath = (q: string) => `${ns}/pods/p1/exec?${q}`

  async function openExec(q: string) {
    const res = await get(execPath(q), {
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
    })
    expect(res.status).toBe(101)
    expect(res.headers.get('Sec-WebSocket-Protocol')).toBe('v5.channel.k8s.io')
    const ws = res.webSocket!
    ws.binaryType = 'arraybuffer'
    ws.accept()
    const frames: Uint8Array[] = []
    let closed = false
    ws.addEventListener('message', (e) => {
      frames.push(new Uint8Array(e.data as ArrayBuffer))
    })
    ws.addEventListener('close', () => (closed = true))
    return { ws, frames, closed: () => closed }
  }

  it('relays stdin, stdout and stderr, and ends with the NonZeroExitCode status and a close', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen(() => {})
    const client = await openExec(
      'command=sh&command=-c&command=cat%3B%20exit%203&container=main&stdin=true&stdout=true&stderr=true',
    )
    const open = await waitFor(() => agent.messages.find((m) => m.op === 'exec'), {
      what: 'the exec op',
    })
    expect(open).toMatchObject({
      op: 'exec',
      container: 'main',
      command: ['sh', '-c', 'cat; exit 3'],
      stdin: true,
      tty: false,
      namespace: 'tunnel',
      pod: 'p1',
    })
    client.ws.send(new Uint8Array([0, ...enc.encode('hello')]))
    client.ws.send(new Uint8Array([255, 0]))
    await waitFor(() => agent.frames.length >= 2, { what: 'stdin at the agent' })
    expect(agent.frames.map((f) => [f.id, f.channel, dec.decode(f.payload)])).toEqual([
      [open.id, 0, 'hello'],
      [open.id, 255, '\u0000'],
    ])
    agent.data(open.id, 1, 'hello')
    agent.data(open.id, 2, 'oops')
    agent.end(open.id, { exitCode: 3 })
    await waitFor(() => client.closed(), { what: 'the close' })
    // First an empty stdout frame, as kube-apiserver says the stream is up.
    expect(client.frames.map((f) => f[0])).toEqual([1, 1, 2, 3])
    expect(client.frames[0]!.byteLength).toBe(1)
    expect(dec.decode(client.frames[1]!.subarray(1))).toBe('hello')
    expect(dec.decode(client.frames[2]!.subarray(1))).toBe('oops')
    const status = JSON.parse(dec.decode(client.frames[3]!.subarray(1)))
    expect(status).toMatchObject({
      metadata: {},
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    })
  })

  it('ends a successful command with the Success status; stderr not asked for is dropped', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen((msg) => {
      agent.data(msg.id, 2, 'not wanted')
      agent.data(msg.id, 1, 'hi\n')
      agent.end(msg.id, { exitCode: 0 })
    })
    const client = await openExec('command=echo&command=hi&stdout=true')
    await waitFor(() => client.closed(), { what: 'the close' })
    expect(client.frames.map((f) => [f[0], dec.decode(f.subarray(1))])).toEqual([
      [1, ''],
      [1, 'hi\n'],
      [3, '{"metadata":{},"status":"Success"}'],
    ])
  })

  it('fails the command when the agent disconnects, and refuses requests it cannot serve', async () => {
    const agent = await fakeAgent('w1')
    agent.onOpen(() => agent.close())
    const client = await openExec('command=sleep&command=60&stdout=true')
    await waitFor(() => client.closed(), { what: 'the close' })
    const status = JSON.parse(dec.decode(client.frames.at(-1)!.subarray(1)))
    expect(client.frames.at(-1)![0]).toBe(3)
    expect(status).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      message: 'Internal error occurred: node "w1" agent disconnected',
    })

    const noCommand = await get(`${ns}/pods/p1/exec?stdout=true`, {
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
    })
    expect(noCommand.status).toBe(400)
    expect(((await noCommand.json()) as any).message).toBe('you must specify at least 1 command')
    const unbound = await get(`${ns}/pods/pending/exec?command=ls&stdout=true`, {
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
    })
    expect(unbound.status).toBe(400)
    expect(((await unbound.json()) as any).message).toBe(
      'pod pending does not have a host assigned',
    )
    const offline = await get(`${ns}/pods/orphan/exec?command=ls&stdout=true`, {
      Upgrade: 'websocket',
      'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
    })
    expect(offline.status).toBe(503)
    await offline.arrayBuffer()
    const spdy = await SELF.fetch(
      `https://edgeplane.test${ns}/pods/orphan/exec?command=ls&stdout=true`,
      { method: 'POST', headers: { Authorization: `Bearer ${adminToken}`, Upgrade: 'SPDY/3.1' } },
    )
    expect(spdy.status).toBe(503)
    await spdy.arrayBuffer()
  })
})

/** A client socket to a streaming endpoint through the Worker, collecting what comes back. */
async function openSocket(
  path: string,
  protocol: string | undefined,
  headers: Record<string, string> = {},
) {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    headers: {
      Authorization: `Bearer ${adminToken}`,
      Upgrade: 'websocket',
      ...(protocol ? { 'Sec-WebSocket-Protocol': protocol } : {}),
      ...headers,
    },
  })
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  ws.binaryType = 'arraybuffer'
  ws.accept()
  const received: Array<string | Uint8Array> = []
  let closed = false
  ws.addEventListener('message', (e) =>
    received.push(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer)),
  )
  ws.addEventListener('close', () => (closed = true))
  return { ws, res, received, closed: () => closed }
}

describe('pods/portforward', () => {
  it("relays kubectl's SPDY bytes to the agent and the agent's back, unchanged", async () => {
    const agent = await fakeAgent('w1')
    const client = await openSocket(`${ns}/pods/p1/portforward`, 'SPDY/3.1+portforward.k8s.io')
    expect(client.res.headers.get('Sec-WebSocket-Protocol')).toBe('SPDY/3.1+portforward.k8s.io')
    const open = await waitFor(() => agent.messages.find((m) => m.op === 'portforward'), {
      what: 'the portforward op',
    })
    expect(open).toMatchObject({ op: 'portforward', namespace: 'tunnel', pod: 'p1' })
    client.ws.send(Uint8Array.of(0x80, 3, 0, 1, 9))
    await waitFor(() => agent.frames.length >= 1, { what: 'bytes at the agent' })
    expect([agent.frames[0]!.id, agent.frames[0]!.channel, [...agent.frames[0]!.payload]]).toEqual([
      open.id,
      0,
      [0x80, 3, 0, 1, 9],
    ])
    agent.data(open.id, 1, 'spdy back')
    await waitFor(() => client.received.length >= 1, { what: 'bytes at the client' })
    expect(dec.decode(client.received[0] as Uint8Array)).toBe('spdy back')
    client.ws.close(1000, 'done')
    await waitFor(() => agent.messages.find((m) => m.op === 'cancel' && m.id === open.id), {
      what: 'the cancel',
    })
  })

  it('refuses a subprotocol it does not serve', async () => {
    const other = await SELF.fetch(`https://edgeplane.test${ns}/pods/p1/portforward`, {
      headers: {
        Authorization: `Bearer ${adminToken}`,
        Upgrade: 'websocket',
        'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
      },
    })
    expect(other.status).toBe(400)
    expect(((await other.json()) as any).message).toContain(
      'supported: [SPDY/3.1+portforward.k8s.io v4.channel.k8s.io v4.base64.channel.k8s.io]',
    )
  })
})

describe('proxied WebSockets through the gateway', () => {
  it('keeps each message text or binary, and lets a text "ping" through to the pod', async () => {
    const agent = await fakeAgent('w1')
    const client = await openSocket(`${ns}/pods/p1:8080/proxy/chat`, 'chat.v1')
    expect(client.res.headers.get('Sec-WebSocket-Protocol')).toBe('chat.v1')
    const open = await waitFor(() => agent.messages.find((m) => m.op === 'websocket'), {
      what: 'the websocket op',
    })
    expect(open).toMatchObject({ op: 'websocket', port: 8080, path: '/chat', pod: 'p1' })
    expect(open.headers.some(([k]: [string]) => k.toLowerCase() === 'authorization')).toBe(false)
    client.ws.send('ping')
    client.ws.send(Uint8Array.of(7))
    await waitFor(() => agent.frames.length >= 2, { what: 'both messages at the agent' })
    expect(agent.frames.map((f) => [f.channel, [...f.payload]])).toEqual([
      [2, [...enc.encode('ping')]],
      [1, [7]],
    ])
    agent.data(open.id, 2, 'pong from the pod')
    agent.data(open.id, 1, 'bytes')
    await waitFor(() => client.received.length >= 2, { what: 'both messages at the client' })
    expect(client.received[0]).toBe('pong from the pod')
    expect(client.received[1]).toBeInstanceOf(Uint8Array)
    agent.end(open.id)
    await waitFor(() => client.closed(), { what: 'the close' })
  })
})
