import type { Duplex } from 'node:stream'

const headEnd = Buffer.from('\r\n\r\n')

/**
 * Copies the Worker's side of an upgraded WebSocket (`from`) to the client (`to`) a frame at a
 * time: the response head, then each frame (or the part of one a read holds) in a write of its
 * own, the next only once the last is written. Over TLS each frame is then a record of its own, as
 * Go's servers (kube-apiserver, the kubelet) write them: a client that polls its socket between
 * frames (the Python client's stream and port-forward) sees every frame arrive, where frames
 * sharing a record would wait unseen in its TLS buffer. A response other than 101 is copied as it
 * comes.
 */
export function relayFrames(from: Duplex, to: Duplex): void {
  let head: Buffer | undefined = Buffer.alloc(0)
  let switched = false
  const frames = new FrameCutter()
  let written = Promise.resolve()
  const write = (pieces: Buffer[]) => {
    from.pause()
    written = written.then(async () => {
      for (const piece of pieces) {
        if (to.destroyed) return
        if (piece.byteLength > 0)
          await new Promise<void>((resolve) => to.write(piece, () => resolve()))
      }
      from.resume()
    })
  }
  from.on('data', (chunk: Buffer) => {
    if (head === undefined) return write(switched ? frames.cut(chunk) : [chunk])
    head = Buffer.concat([head, chunk])
    const end = head.indexOf(headEnd)
    if (end < 0) return
    const rest = head.subarray(end + headEnd.length)
    switched = head.subarray(0, 13).toString('latin1') === 'HTTP/1.1 101 '
    const pieces = switched ? [head.subarray(0, end + headEnd.length), ...frames.cut(rest)] : [head]
    head = undefined
    write(pieces)
  })
  from.on('end', () => void written.then(() => to.end()))
}

/** Cuts a WebSocket byte stream at frame boundaries (RFC 6455 §5.2), keeping a header split across reads. */
export class FrameCutter {
  private header = Buffer.alloc(0)
  /** payload bytes of the current frame still to come */
  private remaining = 0

  cut(chunk: Buffer): Buffer[] {
    const pieces: Buffer[] = []
    let current: Buffer[] = []
    let at = 0
    const flush = () => {
      if (current.length) pieces.push(Buffer.concat(current))
      current = []
    }
    while (at < chunk.byteLength) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.byteLength - at)
        current.push(chunk.subarray(at, at + n))
        at += n
        this.remaining -= n
        if (this.remaining === 0) flush()
        continue
      }
      const need = headerLength(this.header)
      const take = Math.min(need - this.header.byteLength, chunk.byteLength - at)
      this.header = Buffer.concat([this.header, chunk.subarray(at, at + take)])
      at += take
      if (this.header.byteLength < headerLength(this.header)) continue
      this.remaining = payloadLength(this.header)
      current.push(this.header)
      this.header = Buffer.alloc(0)
      if (this.remaining === 0) flush()
    }
    flush()
    return pieces
  }
}

/** How long a frame header is, as far as its first bytes tell (2 until they are in). */
function headerLength(h: Buffer): number {
  if (h.byteLength < 2) return 2
  const len7 = h[1]! & 0x7f
  const masked = h[1]! & 0x80 ? 4 : 0
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + masked
}

function payloadLength(h: Buffer): number {
  const len7 = h[1]! & 0x7f
  if (len7 === 126) return h.readUInt16BE(2)
  if (len7 === 127) return Number(h.readBigUInt64BE(2))
  return len7
}
