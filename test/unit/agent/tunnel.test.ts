import { afterEach, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type {
  ContainerRuntime,
  ContainerState,
  ExecStreams,
} from '../../../src/agent/runtime/types'
import type { LogOptions } from '../../../src/agent-protocol/log-options'
import {
  backoff,
  backoffDelay,
  connectTunnel,
  tunnelUrl,
  type Tunnel,
} from '../../../src/agent/tunnel'
import { ByteQueue, logProblem } from '../../../src/agent/tunnel-sessions'
import { decodeFrame, encodeFrame } from '../../../src/agent-protocol/data-frames'
import { pingText, pongText } from '../../../src/agent-protocol/tunnel-messages'
import { waitFor } from '../../helpers'

const enc = new TextEncoder()
const dec = new TextDecoder()

/** A runtime whose logs and exec the test scripts. */
function fakeRuntime() {
  const calls: { logs: LogOptions[]; exec: string[][] } = { logs: [], exec: [] }
  let logReturned = false
  const rt = {
    calls,
    states: [
      { name: 'main', state: { running: { startedAt: 'now' } }, ready: true, restartCount: 0 },
    ] as ContainerState[] | undefined,
    logReturned: () => logReturned,
    /** a followed log: one line, then it waits forever */
    quiet: false,
    failLogs: undefined as string | undefined,
  }
  const runtime: ContainerRuntime = {
    sync: async () => {},
    stop: async () => {},
    status: () => rt.states,
    onChange: () => {},
    logs(_uid, opts) {
      calls.logs.push(opts)
      return {
        [Symbol.asyncIterator]() {
          let n = 0
          return {
            async next() {
              if (rt.failLogs) throw new Error(rt.failLogs)
              n++
              if (n <= 2) return { done: false, value: enc.encode(`line ${n}\n`) }
              if (rt.quiet) return new Promise<never>(() => {})
              return { done: true, value: undefined }
            },
            async return() {
              logReturned = true
              return { done: true, value: undefined }
            },
          }
        },
      }
    },
    async exec(_uid: string, _container: string, command: string[], streams: ExecStreams) {
      calls.exec.push(command)
      if (command[0] === 'boom') throw new Error('no such container')
      let input = ''
      if (streams.stdin) for await (const c of streams.stdin) input += dec.decode(c)
      streams.stdout(enc.encode(`out:${input}`))
      streams.stderr(enc.encode('err'))
      return Number(command[1] ?? 0)
    },
  }
  return Object.assign(rt, { runtime })
}

/** The gateway's side: a plain ws server the tunnel dials. */
async function gateway() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((r) => wss.once('listening', r))
  const sockets: WebSocket[] = []
  const headers: Record<string, string | string[] | undefined>[] = []
  const paths: string[] = []
  const texts: any[] = []
  const frames: { id: number; channel: number; text: string }[] = []
  wss.on('connection', (ws, req) => {
    sockets.push(ws)
    headers.push(req.headers)
    paths.push(req.url ?? '')
    ws.on('message', (data, binary) => {
      if (!binary) {
        const text = data.toString()
        if (text === pingText) return ws.send(pongText)
        texts.push(JSON.parse(text))
        return
      }
      const f = decodeFrame(data as Buffer)!
      frames.push({ id: f.id, channel: f.channel, text: dec.decode(f.payload) })
    })
  })
  servers.push(wss)
  return {
    wss,
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    sockets,
    headers,
    paths,
    texts,
    frames,
    current: () => sockets.at(-1)!,
  }
}

const servers: WebSocketServer[] = []
const tunnels: Tunnel[] = []
afterEach(async () => {
  await Promise.all(tunnels.splice(0).map((t) => t.close()))
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate()
    await new Promise((r) => s.close(r))
  }
})

async function setup() {
  const gw = await gateway()
  const rt = fakeRuntime()
  const tunnel = connectTunnel({
    server: gw.url,
    token: 'node.n1.sig',
    nodeName: 'n1',
    runtime: rt.runtime,
  })
  tunnels.push(tunnel)
  await waitFor(() => tunnel.connected() && gw.sockets.length === 1, { what: 'the tunnel' })
  return { gw, rt, tunnel }
}

describe('connectTunnel', () => {
  it('dials the node tunnel path with the bearer token', async () => {
    const { gw } = await setup()
    expect(gw.paths[0]).toBe('/agent/v1/nodes/n1/tunnel')
    expect(gw.headers[0]!.authorization).toBe('Bearer node.n1.sig')
  })

  it('serves logs: data on channel 1 then end, with the options as sent', async () => {
    const { gw, rt } = await setup()
    gw.current().send(
      JSON.stringify({
        op: 'logs',
        id: 7,
        podUid: 'u',
        namespace: 'ns',
        pod: 'p',
        opts: { container: 'main', tailLines: 2, timestamps: true },
      }),
    )
    await waitFor(() => gw.texts.find((t) => t.op === 'end'), { what: 'the end' })
    expect(gw.frames).toEqual([
      { id: 7, channel: 1, text: 'line 1\n' },
      { id: 7, channel: 1, text: 'line 2\n' },
    ])
    expect(gw.texts).toEqual([{ op: 'end', id: 7 }])
    expect(rt.calls.logs).toEqual([{ container: 'main', tailLines: 2, timestamps: true }])
  })

  it('ends a log with the runtime error, or with the kubelet words for a pod not created yet', async () => {
    const { gw, rt } = await setup()
    rt.failLogs = 'previous terminated container "main" in pod "p" not found'
    gw.current().send(
      JSON.stringify({
        op: 'logs',
        id: 1,
        podUid: 'u',
        namespace: 'ns',
        pod: 'p',
        opts: { container: 'main', previous: true },
      }),
    )
    await waitFor(() => gw.texts.length === 1, { what: 'the end' })
    expect(gw.texts[0]).toEqual({
      op: 'end',
      id: 1,
      error: 'previous terminated container "main" in pod "p" not found',
    })
    rt.states = undefined
    gw.current().send(
      JSON.stringify({
        op: 'logs',
        id: 2,
        podUid: 'u',
        namespace: 'ns',
        pod: 'p',
        opts: { container: 'main' },
      }),
    )
    await waitFor(() => gw.texts.length === 2, { what: 'the second end' })
    expect(gw.texts[1]).toEqual({
      op: 'end',
      id: 2,
      error: 'container "main" in pod "p" is waiting to start: ContainerCreating',
    })
  })

  it('stops a quiet followed log at once on cancel, and cuts at limitBytes', async () => {
    const { gw, rt } = await setup()
    rt.quiet = true
    gw.current().send(
      JSON.stringify({
        op: 'logs',
        id: 3,
        podUid: 'u',
        namespace: 'ns',
        pod: 'p',
        opts: { container: 'main', follow: true },
      }),
    )
    await waitFor(() => gw.frames.length === 2, { what: 'two lines' })
    gw.current().send(JSON.stringify({ op: 'cancel', id: 3 }))
    await waitFor(() => rt.logReturned(), { what: 'the log iterator closed' })
    gw.current().send(
      JSON.stringify({
        op: 'logs',
        id: 4,
        podUid: 'u',
        namespace: 'ns',
        pod: 'p',
        opts: { container: 'main', limitBytes: 10 },
      }),
    )
    await waitFor(() => gw.texts.find((t) => t.id === 4), { what: 'the end of the limited log' })
    expect(
      gw.frames
        .filter((f) => f.id === 4)
        .map((f) => f.text)
        .join(''),
    ).toBe('line 1\nlin')
    // A cancelled stream sends no end.
    expect(gw.texts.filter((t) => t.id === 3)).toEqual([])
  })

  it('serves exec: stdin until the close frame, stdout and stderr, the exit code', async () => {
    const { gw, rt } = await setup()
    const ws = gw.current()
    ws.send(
      JSON.stringify({
        op: 'exec',
        id: 9,
        podUid: 'u',
        container: 'main',
        command: ['cat', '3'],
        stdin: true,
        tty: false,
      }),
    )
    ws.send(encodeFrame(9, 0, enc.encode('ab')))
    ws.send(encodeFrame(9, 0, enc.encode('c')))
    ws.send(encodeFrame(9, 4, enc.encode('{"Width":80,"Height":24}')))
    ws.send(encodeFrame(9, 255, new Uint8Array([0])))
    await waitFor(() => gw.texts.find((t) => t.id === 9), { what: 'the end' })
    expect(gw.frames).toEqual([
      { id: 9, channel: 1, text: 'out:abc' },
      { id: 9, channel: 2, text: 'err' },
    ])
    expect(gw.texts).toEqual([{ op: 'end', id: 9, exitCode: 3 }])
    expect(rt.calls.exec).toEqual([['cat', '3']])
  })

  it('merges stderr into stdout with a terminal, and reports a failed exec as an error', async () => {
    const { gw } = await setup()
    gw.current().send(
      JSON.stringify({
        op: 'exec',
        id: 1,
        podUid: 'u',
        container: 'main',
        command: ['true'],
        stdin: false,
        tty: true,
      }),
    )
    await waitFor(() => gw.texts.length === 1, { what: 'the end' })
    expect(gw.frames.map((f) => f.channel)).toEqual([1, 1])
    expect(gw.texts[0]).toEqual({ op: 'end', id: 1, exitCode: 0 })
    gw.current().send(
      JSON.stringify({
        op: 'exec',
        id: 2,
        podUid: 'u',
        container: 'main',
        command: ['boom'],
        stdin: false,
        tty: false,
      }),
    )
    await waitFor(() => gw.texts.length === 2, { what: 'the error' })
    expect(gw.texts[1]).toEqual({
      op: 'end',
      id: 2,
      error: 'error executing command in container: no such container',
    })
  })

  it('redials after the connection drops, and close() stops for good', async () => {
    const { gw, tunnel } = await setup()
    gw.current().terminate()
    await waitFor(() => gw.sockets.length === 2 && tunnel.connected(), {
      what: 'the second connection',
      timeoutMs: backoff.maxMs,
    })
    await tunnel.close()
    expect(tunnel.connected()).toBe(false)
    await new Promise((r) => setTimeout(r, 1_200))
    expect(gw.sockets.length).toBe(2)
  })
})

describe('tunnel helpers', () => {
  it('back off from 800 ms, doubling to 30 s, with ±20 % jitter', () => {
    expect(backoffDelay(0, () => 0.5)).toBe(800)
    expect(backoffDelay(1, () => 0.5)).toBe(1600)
    expect(backoffDelay(0, () => 0)).toBe(640)
    expect(backoffDelay(0, () => 1)).toBe(960)
    expect(backoffDelay(10, () => 0.5)).toBe(30_000)
    expect(backoffDelay(10, () => 1)).toBe(30_000)
    expect(backoffDelay(10, () => 0)).toBe(24_000)
  })

  it('build the tunnel URL below the server URL', () => {
    expect(tunnelUrl('https://127.0.0.1:8787', 'n1')).toBe(
      'wss://127.0.0.1:8787/agent/v1/nodes/n1/tunnel',
    )
    expect(tunnelUrl('https://edge.example.com/k8s/', 'a.b')).toBe(
      'wss://edge.example.com/k8s/agent/v1/nodes/a.b/tunnel',
    )
    expect(tunnelUrl('http://localhost:8787', 'n1')).toBe(
      'ws://localhost:8787/agent/v1/nodes/n1/tunnel',
    )
  })

  it('say a pod the runtime does not know is still being created', () => {
    expect(logProblem(undefined, 'p', { container: 'c' })).toBe(
      'container "c" in pod "p" is waiting to start: ContainerCreating',
    )
    expect(logProblem([], 'p', { container: 'c' })).toBeUndefined()
  })

  it('queue stdin in order until its end', async () => {
    const q = new ByteQueue()
    q.push(enc.encode('a'))
    const seen: string[] = []
    const done = (async () => {
      for await (const c of q) seen.push(dec.decode(c))
    })()
    q.push(enc.encode('b'))
    await new Promise((r) => setTimeout(r, 5))
    q.push(enc.encode('c'))
    q.end()
    q.push(enc.encode('late'))
    await done
    expect(seen).toEqual(['a', 'b', 'c'])
  })
})
