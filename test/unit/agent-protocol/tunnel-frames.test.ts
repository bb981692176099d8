import { describe, expect, it } from 'vitest'
import {
  Channel,
  decodeFrame,
  encodeFrame,
  encodeFrames,
  maxPayloadBytes,
} from '../../../src/agent-protocol/data-frames'
import { parseAgentMessage, parseGatewayMessage } from '../../../src/agent-protocol/tunnel-messages'

describe('tunnel data frames', () => {
  it('are [streamId u32 big-endian][channel u8][payload]', () => {
    const frame = encodeFrame(0x01020304, Channel.stderr, new TextEncoder().encode('hi'))
    expect([...frame]).toEqual([1, 2, 3, 4, 2, 104, 105])
    const back = decodeFrame(frame)!
    expect(back.id).toBe(0x01020304)
    expect(back.channel).toBe(2)
    expect(new TextDecoder().decode(back.payload)).toBe('hi')
    expect(decodeFrame(encodeFrame(0xffffffff, 255, new Uint8Array([0])))).toMatchObject({
      id: 0xffffffff,
      channel: 255,
    })
    expect(decodeFrame(new Uint8Array([1, 2, 3]))).toBeUndefined()
  })

  it('decode views into larger buffers and plain ArrayBuffers alike', () => {
    const frame = encodeFrame(7, 1, new Uint8Array([9, 9]))
    const padded = new Uint8Array(frame.byteLength + 3)
    padded.set(frame, 3)
    expect([...decodeFrame(padded.subarray(3))!.payload]).toEqual([9, 9])
    expect(decodeFrame(frame.buffer as ArrayBuffer)!.id).toBe(7)
  })

  it('split a large payload into bounded frames', () => {
    const payload = new Uint8Array(maxPayloadBytes * 2 + 10).fill(7)
    const frames = encodeFrames(5, 1, payload)
    expect(frames.map((f) => f.byteLength)).toEqual([maxPayloadBytes + 5, maxPayloadBytes + 5, 15])
    expect(encodeFrames(5, 1, new Uint8Array(0))).toHaveLength(1)
  })
})

describe('tunnel control messages', () => {
  it('validate what each side may send', () => {
    expect(
      parseGatewayMessage(
        '{"op":"logs","id":1,"podUid":"u","namespace":"ns","pod":"p","opts":{"container":"c","follow":true,"tailLines":10}}',
      ),
    ).toMatchObject({ op: 'logs', opts: { tailLines: 10 } })
    expect(
      parseGatewayMessage(
        '{"op":"exec","id":2,"podUid":"u","container":"c","command":["ls"],"stdin":false,"tty":false}',
      ),
    ).toMatchObject({ op: 'exec', command: ['ls'] })
    expect(
      parseGatewayMessage(
        '{"op":"exec","id":3,"podUid":"u","container":"c","command":[],"attach":true,"stdin":false,"tty":false}',
      ),
    ).toMatchObject({ op: 'exec', attach: true })
    expect(parseGatewayMessage('{"op":"cancel","id":3}')).toEqual({ op: 'cancel', id: 3 })
    expect(parseAgentMessage('{"op":"end","id":3,"exitCode":2}')).toEqual({
      op: 'end',
      id: 3,
      exitCode: 2,
    })
    expect(parseAgentMessage('{"op":"end","id":3,"error":"nope"}')).toEqual({
      op: 'end',
      id: 3,
      error: 'nope',
    })
    for (const bad of [
      '',
      'ping',
      '{"op":"exec","id":1,"podUid":"u","container":"c","command":[],"stdin":false,"tty":false}',
      '{"op":"logs","id":-1}',
      '{"op":"cancel","id":4294967296}',
    ]) {
      expect([bad, parseGatewayMessage(bad)]).toEqual([bad, undefined])
    }
    expect(parseAgentMessage('{"op":"cancel","id":1}')).toBeUndefined()
    // The gateway ends a NodePort stream the far side closed.
    expect(parseGatewayMessage('{"op":"end","id":1}')).toEqual({ op: 'end', id: 1 })
    expect(
      parseGatewayMessage(
        '{"op":"logs","id":1,"podUid":"u","namespace":"ns","pod":"p","opts":{"container":"c","tailLines":-1}}',
      ),
    ).toBeUndefined()
  })
})
