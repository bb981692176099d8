import { afterEach, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { serveChannelPortForward } from '../../../../src/agent/portforward/channels'
import type { StreamOutput } from '../../../../src/agent/stream-output'
import { waitFor } from '../../../helpers'

// The agent's side of port-forward over WebSocket channels, against real TCP servers on loopback.

const enc = new TextEncoder()
const dec = new TextDecoder()
const servers: Server[] = []

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r))
})

/** A server that answers each connection's first chunk with `reply(chunk)`, then closes it (or keeps it open). */
async function listen(
  reply: (text: string) => string,
  close = true,
): Promise<{ port: number; sockets: Socket[] }> {
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => {})
    socket.once('data', (chunk) => {
      socket.write(reply(chunk.toString()))
      if (close) socket.end()
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, sockets }
}

/** A server that reads `total` bytes from each connection, then answers with their sha256 (or never reads, when `total` is 0). */
async function collect(total: number): Promise<{ port: number; sockets: Socket[] }> {
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => {})
    if (total === 0) return void socket.pause()
    const chunks: Buffer[] = []
    let size = 0
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
      if (size === total)
        socket.write(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'))
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, sockets }
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

function output() {
  const data: Array<[number, string]> = []
  let ended: Record<string, unknown> | undefined
  const out: StreamOutput = {
    data: (channel, chunk) => void data.push([channel, dec.decode(chunk)]),
    end: (end) => void (ended = end),
    drained: async () => {},
    congested: () => false,
  }
  return { out, data, ended: () => ended }
}

const target = { pod: 'ns/web', uid: 'uid-1', hosts: ['127.0.0.1'] }

describe('port-forward over channels at the agent', () => {
  it('joins each port to its data channel, reports a refused port on its error channel, and ends when every port is done', async () => {
    const a = await listen((t) => `a got ${t}`)
    const b = await listen((t) => `b got ${t}`)
    const refused = await closedPort()
    const o = output()
    const session = serveChannelPortForward(target, [a.port, refused, b.port], o.out)
    // Sent before the pod's sockets connect: kept and written once they do.
    session.input({ id: 1, channel: 0, payload: enc.encode('one') })
    session.input({ id: 1, channel: 4, payload: enc.encode('two') })
    session.input({ id: 1, channel: 3, payload: enc.encode('an error channel is not read') })
    session.input({ id: 1, channel: 6, payload: enc.encode('no such port') })
    await waitFor(() => o.ended() !== undefined, { what: 'the end' })
    expect(o.ended()).toEqual({})
    expect(o.data.filter(([c]) => c === 0)).toEqual([[0, 'a got one']])
    expect(o.data.filter(([c]) => c === 4)).toEqual([[4, 'b got two']])
    expect(o.data.filter(([c]) => c === 3)).toEqual([
      [
        3,
        `error forwarding port ${refused} to pod ns/web, uid uid-1: dial tcp4 127.0.0.1:${refused}: connect: connection refused`,
      ],
    ])
    expect(o.data.map(([c]) => c).sort()).toEqual([0, 3, 4])
  })

  it("stays open while a port's connection is, and cancel closes the pod's sockets", async () => {
    const a = await listen((t) => `a got ${t}`, false)
    const o = output()
    const session = serveChannelPortForward(target, [a.port, a.port], o.out)
    session.input({ id: 1, channel: 2, payload: enc.encode('second') })
    await waitFor(() => o.data.length === 1, { what: 'the answer' })
    expect(o.data).toEqual([[2, 'a got second']])
    await new Promise((r) => setTimeout(r, 100))
    expect(o.ended()).toBeUndefined()
    expect(a.sockets).toHaveLength(2)
    session.cancel()
    await waitFor(() => a.sockets.every((s) => s.closed || s.readableEnded), {
      what: "the pod's sockets closed",
    })
    expect(o.ended()).toBeUndefined()
  })

  it("writes the runtime's reason on every port's error channel when the pod cannot be reached", async () => {
    const o = output()
    serveChannelPortForward(
      {
        ...target,
        hosts: [],
        problem: 'this node runs simulated containers, which listen on no ports',
      },
      [80, 81],
      o.out,
    )
    await waitFor(() => o.ended() !== undefined, { what: 'the end' })
    expect(o.data).toEqual([
      [
        1,
        'error forwarding port 80 to pod ns/web, uid uid-1: this node runs simulated containers, which listen on no ports',
      ],
      [
        3,
        'error forwarding port 81 to pod ns/web, uid uid-1: this node runs simulated containers, which listen on no ports',
      ],
    ])
  })

  const mib = 1024 * 1024
  /** 64 KiB chunks, each of its own byte, `count` of them. */
  const chunks = (count: number) =>
    Array.from({ length: count }, (_, i) => new Uint8Array(64 * 1024).fill(i))
  const sha = (parts: Uint8Array[]) =>
    createHash('sha256').update(Buffer.concat(parts)).digest('hex')
  const tooMuch = (port: number) =>
    `error forwarding port ${port} to pod ns/web, uid uid-1: more than ${mib} bytes from the client are waiting for the pod to read them`

  it("holds up to 1 MiB of the client's bytes while the pod's port connects, and passes them on in order", async () => {
    const pod = await collect(mib)
    const o = output()
    const session = serveChannelPortForward(target, [pod.port], o.out)
    const sent = chunks(16)
    for (const payload of sent) session.input({ id: 1, channel: 0, payload })
    await waitFor(() => o.data.length > 0, { what: 'the answer' })
    expect(o.data).toEqual([[0, sha(sent)]])
    session.cancel()
  })

  it('fails a port once more than 1 MiB waits for it to connect, on its error channel, and keeps the others', async () => {
    const slow = await collect(0)
    const a = await listen((t) => `a got ${t}`)
    const o = output()
    const session = serveChannelPortForward(target, [slow.port, a.port], o.out)
    for (const payload of chunks(16)) session.input({ id: 1, channel: 0, payload })
    session.input({ id: 1, channel: 0, payload: enc.encode('!') })
    session.input({ id: 1, channel: 2, payload: enc.encode('two') })
    await waitFor(() => o.ended() !== undefined, { what: 'the end' })
    expect(o.data.filter(([c]) => c !== 0)).toEqual([
      [1, tooMuch(slow.port)],
      [2, 'a got two'],
    ])
  })

  it('fails a port whose pod stops reading once more than 1 MiB waits for it, and closes its connection', async () => {
    const stalled = await collect(0)
    const o = output()
    const session = serveChannelPortForward(target, [stalled.port], o.out)
    await waitFor(() => stalled.sockets.length === 1, { what: 'the connection' })
    // The socket buffers fill first; past them, the client's bytes wait at the agent.
    for (let sent = 0; sent < 256 * mib && o.ended() === undefined; sent += 64 * 1024) {
      session.input({ id: 1, channel: 0, payload: new Uint8Array(64 * 1024) })
      await nextTurn()
    }
    expect(o.ended()).toEqual({})
    expect(o.data).toEqual([[1, tooMuch(stalled.port)]])
    // The pod, reading again, finds its connection closed.
    const pod = stalled.sockets[0]!
    const closed = new Promise((r) => pod.once('close', r))
    pod.resume()
    await closed
  })
})
