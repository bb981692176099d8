import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { closeFakeAgents, fakeAgent } from './fake-agent'
import { api, token } from './helpers'
import { podManifest, waitFor } from '../helpers'

// exec, attach and port-forward in every WebSocket subprotocol kube-apiserver and the kubelet
// serve, driven through the Worker and the node gateway against a fake agent: each protocol's
// framing both ways (text and binary client messages alike), and its error channel.

const enc = new TextEncoder()
const dec = new TextDecoder()
const ns = '/api/v1/namespaces/streams'
const NODE = 'streams-node'

afterEach(closeFakeAgents)

beforeAll(async () => {
  await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'streams' },
  })
  const pod = podManifest('p', { nodeName: NODE })
  expect((await api('POST', `${ns}/pods`, pod)).status).toBe(201)
})

const b64 = (s: string | Uint8Array) =>
  btoa(String.fromCharCode(...(typeof s === 'string' ? enc.encode(s) : s)))
const isBase64 = (protocol: string) => protocol.includes('base64')

/** A client message on `channel` (below 128, so that a text message can carry it) in the protocol's framing, sent as a text or a binary WebSocket message. */
function clientMessage(
  protocol: string,
  channel: number,
  payload: string,
  as: 'text' | 'binary',
): string | Uint8Array {
  const text = isBase64(protocol)
    ? String.fromCharCode(48 + channel) + b64(payload)
    : String.fromCharCode(channel) + payload
  return as === 'text' ? text : enc.encode(text)
}

/** v5's close of stdin as kubectl sends it; a channel the other protocols do not read. */
const closeStdin = Uint8Array.of(255, 0)

/** What the client received, as [channel, payload text], checking each message's kind against the protocol. */
function decoded(protocol: string, received: Array<string | Uint8Array>): Array<[number, string]> {
  return received.map((m) => {
    if (isBase64(protocol)) {
      expect(typeof m).toBe('string')
      const s = m as string
      return [
        s.charCodeAt(0) - 48,
        dec.decode(Uint8Array.from(atob(s.slice(1)), (c) => c.charCodeAt(0))),
      ]
    }
    expect(m).toBeInstanceOf(Uint8Array)
    const bytes = m as Uint8Array
    return [bytes[0]!, dec.decode(bytes.subarray(1))]
  })
}

async function open(path: string, offered: string | undefined) {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    headers: {
      Authorization: `Bearer ${token}`,
      Upgrade: 'websocket',
      ...(offered !== undefined ? { 'Sec-WebSocket-Protocol': offered } : {}),
    },
  })
  if (res.status !== 101) throw new Error(`upgrade answered ${res.status}: ${await res.text()}`)
  const ws = res.webSocket!
  ws.binaryType = 'arraybuffer'
  ws.accept()
  const received: Array<string | Uint8Array> = []
  let closed: number | undefined
  ws.addEventListener('message', (e) =>
    received.push(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer)),
  )
  ws.addEventListener('close', (e) => {
    closed = e.code
  })
  return { ws, received, protocol: res.headers.get('Sec-WebSocket-Protocol'), closed: () => closed }
}

const nonZero = (command: string) =>
  `command terminated with non-zero exit code: error executing command [${command}], exit code 3`

const execProtocols: Array<{
  offered: string | undefined
  chosen: string
  json: boolean
  close: boolean
}> = [
  { offered: 'v5.channel.k8s.io', chosen: 'v5.channel.k8s.io', json: true, close: true },
  { offered: 'v4.channel.k8s.io', chosen: 'v4.channel.k8s.io', json: true, close: false },
  {
    offered: 'v4.base64.channel.k8s.io',
    chosen: 'v4.base64.channel.k8s.io',
    json: true,
    close: false,
  },
  { offered: 'channel.k8s.io', chosen: 'channel.k8s.io', json: false, close: false },
  { offered: 'base64.channel.k8s.io', chosen: 'base64.channel.k8s.io', json: false, close: false },
  { offered: undefined, chosen: '', json: false, close: false },
]

describe.each(execProtocols)('exec and attach over $chosen', ({ offered, chosen, json, close }) => {
  it.each(['text', 'binary'] as const)(
    'relays stdin sent as %s messages, the output channels, and the exit code on the error channel',
    async (as) => {
      const agent = await fakeAgent(NODE)
      const client = await open(
        `${ns}/pods/p/exec?command=sh&command=-c&command=exit%203&stdin=true&stdout=true&stderr=true`,
        offered,
      )
      expect(client.protocol ?? '').toBe(chosen)
      const op = await waitFor(() => agent.messages.find((m) => m.op === 'exec'), {
        what: 'the exec op',
      })
      client.ws.send(clientMessage(chosen, 0, 'echo hi\n', as))
      client.ws.send(clientMessage(chosen, 4, '{"Width":80,"Height":24}', as))
      client.ws.send(clientMessage(chosen, 9, 'nobody reads this', as))
      client.ws.send(closeStdin)
      const expected = [
        [0, 'echo hi\n'],
        [4, '{"Width":80,"Height":24}'],
        ...(close ? [[255, '\u0000']] : []),
      ]
      await waitFor(() => agent.frames.length >= expected.length, {
        what: 'the frames at the agent',
      })
      await new Promise((r) => setTimeout(r, 50))
      expect(agent.frames.map((f) => [f.channel, dec.decode(f.payload)])).toEqual(expected)

      agent.data(op.id, 1, 'hi\n')
      agent.data(op.id, 2, 'warn\n')
      agent.end(op.id, { exitCode: 3 })
      await waitFor(() => client.closed(), { what: 'the close' })
      const status = {
        metadata: {},
        status: 'Failure',
        message: nonZero('sh -c exit 3'),
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      }
      expect(decoded(chosen, client.received)).toEqual([
        [1, ''],
        [1, 'hi\n'],
        [2, 'warn\n'],
        [3, json ? JSON.stringify(status) : nonZero('sh -c exit 3')],
      ])
      expect(client.closed()).toBe(1000)
    },
  )

  it('ends a success with the Success status in v4 and v5 and nothing in v1; attach alike; an internal error as its message', async () => {
    const agent = await fakeAgent(NODE)
    const ok = await open(`${ns}/pods/p/attach?stdin=true&stderr=true`, offered)
    const attach = await waitFor(() => agent.messages.find((m) => m.op === 'exec' && m.attach), {
      what: 'the attach op',
    })
    expect(attach).toMatchObject({ command: [], stdin: true })
    agent.data(attach.id, 1, 'stdout was not asked for')
    agent.data(attach.id, 2, 'err\n')
    agent.end(attach.id, { exitCode: 0 })
    await waitFor(() => ok.closed(), { what: 'the close' })
    expect(decoded(chosen, ok.received)).toEqual([
      [2, ''],
      [2, 'err\n'],
      ...(json ? [[3, '{"metadata":{},"status":"Success"}'] as [number, string]] : []),
    ])

    const broken = await open(`${ns}/pods/p/exec?command=true&stdin=true`, offered)
    const op = await waitFor(() => agent.messages.find((m) => m.op === 'exec' && !m.attach), {
      what: 'the exec op',
    })
    agent.end(op.id, { error: 'error executing command in container: no such container' })
    await waitFor(() => broken.closed(), { what: 'the close' })
    const message =
      'Internal error occurred: error executing command in container: no such container'
    const frames = decoded(chosen, broken.received)
    expect(frames[0]).toEqual([3, ''])
    expect(frames[1]![0]).toBe(3)
    expect(json ? JSON.parse(frames[1]![1]) : frames[1]![1]).toEqual(
      json
        ? {
            metadata: {},
            status: 'Failure',
            message,
            reason: 'InternalError',
            details: {
              causes: [{ message: 'error executing command in container: no such container' }],
            },
            code: 500,
          }
        : message,
    )
  })
})

describe.each([
  { offered: 'v4.channel.k8s.io', chosen: 'v4.channel.k8s.io' },
  { offered: 'v4.base64.channel.k8s.io', chosen: 'v4.base64.channel.k8s.io' },
  { offered: undefined, chosen: '' },
])('port-forward over $chosen', ({ offered, chosen }) => {
  it.each(['text', 'binary'] as const)(
    'opens a data and an error channel per port, relays %s messages both ways, and closes when the agent ends',
    async (as) => {
      const agent = await fakeAgent(NODE)
      const client = await open(`${ns}/pods/p/portforward?ports=8000,8001`, offered)
      expect(client.protocol ?? '').toBe(chosen)
      const op = await waitFor(() => agent.messages.find((m) => m.op === 'portforward'), {
        what: 'the portforward op',
      })
      expect(op).toMatchObject({ namespace: 'streams', pod: 'p', ports: [8000, 8001] })
      await waitFor(() => client.received.length >= 4, { what: 'the port frames' })
      expect(
        decoded(chosen, client.received).map(([c, t]) => [
          c,
          t.length === 2 ? t.charCodeAt(0) + t.charCodeAt(1) * 256 : t,
        ]),
      ).toEqual([
        [0, 8000],
        [1, 8000],
        [2, 8001],
        [3, 8001],
      ])
      client.ws.send(clientMessage(chosen, 0, 'GET / HTTP/1.0\r\n\r\n', as))
      client.ws.send(clientMessage(chosen, 1, 'an error channel is not read', as))
      client.ws.send(clientMessage(chosen, 2, 'second port', as))
      client.ws.send(clientMessage(chosen, 4, 'no third port', as))
      await waitFor(() => agent.frames.length >= 2, { what: 'the data at the agent' })
      await new Promise((r) => setTimeout(r, 50))
      expect(agent.frames.map((f) => [f.channel, dec.decode(f.payload)])).toEqual([
        [0, 'GET / HTTP/1.0\r\n\r\n'],
        [2, 'second port'],
      ])
      agent.data(op.id, 0, 'HTTP/1.0 200 OK\r\n\r\nhello')
      agent.data(
        op.id,
        3,
        'error forwarding port 8001 to pod streams/p, uid u: dial tcp4 127.0.0.1:8001: connect: connection refused',
      )
      agent.data(op.id, 4, 'no such channel')
      agent.end(op.id)
      await waitFor(() => client.closed(), { what: 'the close' })
      expect(client.closed()).toBe(1000)
      expect(decoded(chosen, client.received.slice(4))).toEqual([
        [0, 'HTTP/1.0 200 OK\r\n\r\nhello'],
        [
          3,
          'error forwarding port 8001 to pod streams/p, uid u: dial tcp4 127.0.0.1:8001: connect: connection refused',
        ],
      ])
    },
  )
})

describe('negotiation', () => {
  const upgrade = (path: string, offered: string) =>
    SELF.fetch(`https://edgeplane.test${ns}/pods/p/${path}`, {
      headers: {
        Authorization: `Bearer ${token}`,
        Upgrade: 'websocket',
        'Sec-WebSocket-Protocol': offered,
      },
    })

  it('takes v5 for exec wherever it is offered, else the first protocol offered that is served', async () => {
    await fakeAgent(NODE)
    for (const [offered, chosen] of [
      ['v4.channel.k8s.io, v5.channel.k8s.io', 'v5.channel.k8s.io'],
      [
        'base64url.bearer.authorization.k8s.io.eA, base64.channel.k8s.io, v4.channel.k8s.io',
        'base64.channel.k8s.io',
      ],
      ['v3.channel.k8s.io,v4.base64.channel.k8s.io,channel.k8s.io', 'v4.base64.channel.k8s.io'],
    ]) {
      const res = await upgrade('exec?command=ls&stdout=true', offered!)
      expect(res.status).toBe(101)
      expect(res.headers.get('Sec-WebSocket-Protocol')).toBe(chosen)
      res.webSocket!.accept()
      res.webSocket!.close(1000, 'done')
    }
  })

  it("takes kubectl's SPDY tunnel for port-forward wherever offered, else v4 (client-node's offer)", async () => {
    await fakeAgent(NODE)
    for (const [path, offered, chosen] of [
      [
        'portforward',
        'v4.channel.k8s.io, SPDY/3.1+portforward.k8s.io',
        'SPDY/3.1+portforward.k8s.io',
      ],
      [
        'portforward?ports=80',
        'v5.channel.k8s.io,v4.channel.k8s.io,v3.channel.k8s.io,v2.channel.k8s.io,channel.k8s.io',
        'v4.channel.k8s.io',
      ],
    ]) {
      const res = await upgrade(path!, offered!)
      expect(res.status).toBe(101)
      expect(res.headers.get('Sec-WebSocket-Protocol')).toBe(chosen)
      res.webSocket!.accept()
      res.webSocket!.close(1000, 'done')
    }
  })

  it('refuses protocols not served, and ports the kubelet would not parse, with 400 and the reason', async () => {
    await fakeAgent(NODE)
    const cases: Array<[string, string, string]> = [
      [
        'exec?command=ls&stdout=true',
        'v3.channel.k8s.io, v2.channel.k8s.io',
        'unable to upgrade connection: none of the requested protocols [v3.channel.k8s.io v2.channel.k8s.io] is supported; supported: [v5.channel.k8s.io channel.k8s.io base64.channel.k8s.io v4.channel.k8s.io v4.base64.channel.k8s.io]',
      ],
      [
        'portforward?ports=80',
        'channel.k8s.io',
        'unable to upgrade connection: none of the requested protocols [channel.k8s.io] is supported; supported: [SPDY/3.1+portforward.k8s.io v4.channel.k8s.io v4.base64.channel.k8s.io]',
      ],
      ['portforward', 'v4.channel.k8s.io', 'query parameter "ports" is required'],
      ['portforward?ports=', 'v4.channel.k8s.io', 'query parameter "ports" cannot be empty'],
      [
        'portforward?ports=80,http',
        'v4.channel.k8s.io',
        'unable to parse "80,http" as a port: strconv.ParseUint: parsing "http": invalid syntax',
      ],
      [
        'portforward?ports=70000',
        'v4.channel.k8s.io',
        'unable to parse "70000" as a port: strconv.ParseUint: parsing "70000": value out of range',
      ],
      ['portforward?ports=80&ports=0', 'v4.channel.k8s.io', 'port "0" must be > 0'],
      [
        `portforward?ports=${Array.from({ length: 129 }, (_, i) => 1000 + i).join(',')}`,
        'v4.channel.k8s.io',
        'query parameter "ports" names 129 ports; at most 128 are forwarded over one connection',
      ],
    ]
    for (const [path, offered, message] of cases) {
      const res = await upgrade(path, offered)
      expect(res.status, path).toBe(400)
      expect(await res.json(), path).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'BadRequest',
        code: 400,
        message,
      })
    }
  })
})
