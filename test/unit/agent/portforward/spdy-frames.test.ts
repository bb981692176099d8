import { constants, createDeflate, createInflate } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { spdyHeaderDictionary } from '../../../../src/agent/portforward/spdy-dictionary'
import {
  ControlType,
  FrameReader,
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  synReplyFrame,
} from '../../../../src/agent/portforward/spdy-frames'
import { HeaderDeflater, HeaderInflater } from '../../../../src/agent/portforward/spdy-headers'

/** Inflates a zlib stream with the SPDY dictionary, one sync-flushed piece at a time, as a peer would. */
async function inflatePieces(pieces: Uint8Array[]): Promise<Buffer[]> {
  const z = createInflate({ dictionary: spdyHeaderDictionary })
  const out: Buffer[] = []
  for (const p of pieces) {
    const chunks: Buffer[] = []
    const onData = (c: Buffer) => chunks.push(c)
    z.on('data', onData)
    z.write(p)
    await new Promise<void>((r) => z.flush(constants.Z_SYNC_FLUSH, () => r()))
    z.off('data', onData)
    out.push(Buffer.concat(chunks))
  }
  return out
}

describe('SPDY/3 framing for port-forward', () => {
  it('cuts a byte stream into frames whatever the chunk boundaries', () => {
    const bytes = Buffer.concat([
      dataFrame(3, Buffer.from('hello')),
      controlFrame(ControlType.ping, 0, Uint8Array.of(0, 0, 0, 1)),
      dataFrame(3, new Uint8Array(0), true),
    ])
    const reader = new FrameReader()
    const frames = [...bytes].flatMap((b) => reader.push(Uint8Array.of(b)))
    expect(
      frames.map((f) =>
        f.control
          ? `control ${f.type}`
          : `data ${f.streamId} ${f.flags} ${Buffer.from(f.data).toString()}`,
      ),
    ).toEqual(['data 3 0 hello', 'control 6', 'data 3 1 '])
  })

  it('writes header blocks that a zlib peer with the SPDY dictionary reads, block by block', async () => {
    const deflater = new HeaderDeflater()
    const blocks = [
      encodeHeaderBlock([]),
      encodeHeaderBlock([
        ['StreamType', 'error'],
        ['port', '8080'],
      ]),
    ]
    const [first, second] = await inflatePieces(blocks.map((b) => deflater.deflate(b)))
    expect(decodeHeaderBlock(first!)).toEqual(new Map())
    expect(decodeHeaderBlock(second!)).toEqual(
      new Map([
        ['streamtype', 'error'],
        ['port', '8080'],
      ]),
    )
    expect(synReplyFrame(5, Uint8Array.of(9)).subarray(0, 12)).toEqual(
      Uint8Array.of(0x80, 3, 0, 2, 0, 0, 0, 5, 0, 0, 0, 5),
    )
  })

  it('reads header blocks compressed with the SPDY dictionary, across frames of one stream', async () => {
    const z = createDeflate({ dictionary: spdyHeaderDictionary })
    const pieces: Buffer[] = []
    for (const block of [
      encodeHeaderBlock([
        ['streamtype', 'data'],
        ['port', '80'],
        ['requestid', '0'],
      ]),
      encodeHeaderBlock([
        ['streamtype', 'error'],
        ['requestid', '1'],
      ]),
    ]) {
      const chunks: Buffer[] = []
      const onData = (c: Buffer) => chunks.push(c)
      z.on('data', onData)
      z.write(block)
      await new Promise<void>((r) => z.flush(constants.Z_SYNC_FLUSH, () => r()))
      z.off('data', onData)
      pieces.push(Buffer.concat(chunks))
    }
    const inflater = new HeaderInflater()
    const a = decodeHeaderBlock(await inflater.inflate(pieces[0]!))
    const b = decodeHeaderBlock(await inflater.inflate(pieces[1]!))
    inflater.close()
    expect(a?.get('streamtype')).toBe('data')
    expect(a?.get('port')).toBe('80')
    expect(b?.get('requestid')).toBe('1')
  })
})
