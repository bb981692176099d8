/**
 * SPDY/3 framing, the part port-forward uses (as kubectl's spdystream speaks it). Every frame has
 * an 8-byte header: a control frame starts with the control bit, version 3 and its type; a data
 * frame with a 31-bit stream id. Then one byte of flags and a 24-bit length.
 */

export const ControlType = {
  synStream: 1,
  synReply: 2,
  rstStream: 3,
  settings: 4,
  ping: 6,
  goAway: 7,
  headers: 8,
  windowUpdate: 9,
} as const

/** FLAG_FIN: the sender sends nothing more on the stream. */
export const finFlag = 0x01

/** RST_STREAM status codes. */
export const RstStatus = {
  protocolError: 1,
  invalidStream: 2,
  refusedStream: 3,
  cancel: 5,
  internalError: 6,
} as const

export type Frame =
  | { control: false; streamId: number; flags: number; data: Uint8Array }
  | { control: true; type: number; flags: number; data: Uint8Array }

const headerBytes = 8
/** The largest length a frame header can carry. */
export const maxFrameData = 0xffffff

/** Cuts a byte stream into frames; bytes of an unfinished frame wait for the next chunk. */
export class FrameReader {
  private buf: Uint8Array = new Uint8Array(0)

  push(chunk: Uint8Array): Frame[] {
    this.buf = this.buf.byteLength === 0 ? chunk.slice() : concat(this.buf, chunk)
    const frames: Frame[] = []
    let at = 0
    while (this.buf.byteLength - at >= headerBytes) {
      const view = new DataView(this.buf.buffer, this.buf.byteOffset + at)
      const length = view.getUint32(4) & 0xffffff
      if (this.buf.byteLength - at < headerBytes + length) break
      const flags = this.buf[at + 4]!
      const data = this.buf.subarray(at + headerBytes, at + headerBytes + length)
      const first = view.getUint32(0)
      if (first & 0x80000000) frames.push({ control: true, type: first & 0xffff, flags, data })
      else frames.push({ control: false, streamId: first, flags, data })
      at += headerBytes + length
    }
    this.buf = this.buf.subarray(at)
    return frames
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength)
  out.set(a)
  out.set(b, a.byteLength)
  return out
}

function frame(first: number, flags: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(headerBytes + body.byteLength)
  const view = new DataView(out.buffer)
  view.setUint32(0, first >>> 0)
  view.setUint32(4, ((flags & 0xff) << 24) | body.byteLength)
  out.set(body, headerBytes)
  return out
}

function u32s(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4)
  const view = new DataView(out.buffer)
  values.forEach((v, i) => view.setUint32(i * 4, v >>> 0))
  return out
}

export function controlFrame(type: number, flags: number, body: Uint8Array): Uint8Array {
  return frame(0x80030000 | type, flags, body)
}

export function dataFrame(streamId: number, data: Uint8Array, fin = false): Uint8Array {
  return frame(streamId & 0x7fffffff, fin ? finFlag : 0, data)
}

export function synReplyFrame(streamId: number, headerBlock: Uint8Array): Uint8Array {
  return controlFrame(ControlType.synReply, 0, concat(u32s(streamId & 0x7fffffff), headerBlock))
}

export function rstStreamFrame(streamId: number, status: number): Uint8Array {
  return controlFrame(ControlType.rstStream, 0, u32s(streamId & 0x7fffffff, status))
}

export function goAwayFrame(lastStreamId: number): Uint8Array {
  return controlFrame(ControlType.goAway, 0, u32s(lastStreamId & 0x7fffffff, 0))
}

/** The stream id a control frame names (SYN_STREAM, SYN_REPLY, RST_STREAM, HEADERS, WINDOW_UPDATE). */
export function controlStreamId(f: Extract<Frame, { control: true }>): number {
  if (f.data.byteLength < 4) return 0
  return new DataView(f.data.buffer, f.data.byteOffset, 4).getUint32(0) & 0x7fffffff
}

/** The compressed header block of a SYN_STREAM (after stream id, associated id, priority, slot). */
export function synStreamHeaderBlock(f: Extract<Frame, { control: true }>): Uint8Array {
  return f.data.subarray(10)
}

/** A HEADERS frame's compressed block (after its stream id). */
export function headersHeaderBlock(f: Extract<Frame, { control: true }>): Uint8Array {
  return f.data.subarray(4)
}

/** An uncompressed name/value block: a count, then length-prefixed names and values. */
export function encodeHeaderBlock(headers: Array<[string, string]>): Uint8Array {
  const enc = new TextEncoder()
  const parts: Uint8Array[] = [u32s(headers.length)]
  for (const [name, value] of headers) {
    const n = enc.encode(name.toLowerCase())
    const v = enc.encode(value)
    parts.push(u32s(n.byteLength), n, u32s(v.byteLength), v)
  }
  return parts.reduce(concat, new Uint8Array(0))
}

/** Header names lower-cased; several values of one name (NUL-separated) keep the first. */
export function decodeHeaderBlock(block: Uint8Array): Map<string, string> | undefined {
  const dec = new TextDecoder()
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength)
  const headers = new Map<string, string>()
  let at = 0
  const read = (): string | undefined => {
    if (at + 4 > block.byteLength) return undefined
    const len = view.getUint32(at)
    at += 4
    if (at + len > block.byteLength) return undefined
    const s = dec.decode(block.subarray(at, at + len))
    at += len
    return s
  }
  if (block.byteLength < 4) return undefined
  const count = view.getUint32(0)
  at = 4
  for (let i = 0; i < count; i++) {
    const name = read()
    const value = read()
    if (name === undefined || value === undefined) return undefined
    headers.set(name.toLowerCase(), value.split('\0')[0]!)
  }
  return headers
}
