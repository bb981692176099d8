import { afterEach, describe, expect, it } from 'vitest'
import { PassThrough } from 'node:stream'
import { connect, createServer, type Server, type TLSSocket } from 'node:tls'
import type { AddressInfo } from 'node:net'
import { FrameCutter, relayFrames } from '../../../src/launcher/websocket-records'
import { selfSignedCertificate } from '../../../src/launcher/tls'

/** A server-to-client (unmasked) frame, or a masked one as a client sends it. */
function frame(opcode: number, payload: Buffer, masked = false): Buffer {
  const len = payload.byteLength
  const ext = len > 0xffff ? 8 : len > 125 ? 2 : 0
  const head = Buffer.alloc(2 + ext + (masked ? 4 : 0))
  head[0] = 0x80 | opcode
  head[1] = (masked ? 0x80 : 0) | (ext === 8 ? 127 : ext === 2 ? 126 : len)
  if (ext === 2) head.writeUInt16BE(len, 2)
  if (ext === 8) head.writeBigUInt64BE(BigInt(len), 2)
  return Buffer.concat([head, payload])
}

describe('FrameCutter', () => {
  it('cuts a stream at frame boundaries whatever the reads, keeping a header split across them', () => {
    const frames = [
      frame(2, Buffer.from('\u0001hi')),
      frame(2, Buffer.alloc(300, 7)),
      frame(2, Buffer.alloc(70_000, 9)),
      frame(8, Buffer.from([3, 232])),
      frame(1, Buffer.from('x'), true),
    ]
    const stream = Buffer.concat(frames)
    for (const size of [1, 2, 3, 7, 100, 4096, stream.byteLength]) {
      const cutter = new FrameCutter()
      const pieces: Buffer[] = []
      for (let at = 0; at < stream.byteLength; at += size)
        pieces.push(...cutter.cut(stream.subarray(at, at + size)))
      // Pieces never straddle two frames, and together they are the stream.
      expect(Buffer.concat(pieces).equals(stream), `reads of ${size}`).toBe(true)
      const ends = frames.reduce<number[]>(
        (acc, f) => [...acc, (acc.at(-1) ?? 0) + f.byteLength],
        [],
      )
      let at = 0
      const straddling: number[] = []
      for (const p of pieces) {
        if (at + p.byteLength > ends.find((e) => e > at)!) straddling.push(at)
        at += p.byteLength
      }
      expect(straddling, `reads of ${size}`).toEqual([])
      if (size === stream.byteLength)
        expect(pieces.map((p) => p.byteLength)).toEqual(frames.map((f) => f.byteLength))
    }
  })
})

describe('relayFrames', () => {
  let server: Server | undefined
  afterEach(() => void server?.close())

  it('sends the 101 head and every frame in a TLS record of its own, though the Worker wrote them at once', async () => {
    const { cert, private: key } = await selfSignedCertificate({
      commonName: 'test',
      ips: ['127.0.0.1'],
      dnsNames: [],
      validDays: 1,
    })
    const head = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n')
    const frames = [
      frame(2, Buffer.from('\u0000\u0040\u001f')),
      frame(2, Buffer.from('\u0001\u0040\u001f')),
      frame(2, Buffer.from('\u0003{"status":"Success"}')),
      frame(8, Buffer.from([3, 232])),
    ]
    const worker = new PassThrough()
    server = createServer({ cert, key }, (socket) => {
      relayFrames(worker, socket)
      worker.end(Buffer.concat([head, ...frames]))
    })
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const client: TLSSocket = connect({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      ca: cert,
      servername: 'test',
      checkServerIdentity: () => undefined,
    })
    const reads: Buffer[] = []
    client.on('data', (chunk: Buffer) => reads.push(chunk))
    await new Promise((r) => client.on('end', r))
    client.destroy()
    // Each read of a TLS socket is one record.
    expect(reads.map((r) => r.toString('latin1'))).toEqual(
      [head, ...frames].map((b) => b.toString('latin1')),
    )
  })

  it('copies any other answer as it comes', async () => {
    const worker = new PassThrough()
    const client = new PassThrough()
    const out: Buffer[] = []
    client.on('data', (c: Buffer) => out.push(c))
    relayFrames(worker, client)
    const body = 'HTTP/1.1 400 Bad Request\r\nContent-Length: 5\r\n\r\nnope!'
    worker.end(Buffer.from(body))
    await new Promise((r) => client.on('end', r))
    expect(Buffer.concat(out).toString()).toBe(body)
  })
})
