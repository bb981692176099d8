import { constants, createInflate, type Inflate } from 'node:zlib'
import { spdyHeaderDictionary } from './spdy-dictionary'

/**
 * Header blocks of one SPDY connection and direction share a single zlib stream, flushed
 * (Z_SYNC_FLUSH) after every block and primed with the SPDY dictionary.
 */

/** Inflates the peer's header blocks in order; each call resolves with that block's bytes. */
export class HeaderInflater {
  private readonly zlib: Inflate = createInflate({ dictionary: spdyHeaderDictionary })
  private readonly out: Buffer[] = []
  private failure: Error | undefined
  private chain: Promise<unknown> = Promise.resolve()

  constructor() {
    this.zlib.on('data', (chunk: Buffer) => this.out.push(chunk))
    this.zlib.on('error', (err) => (this.failure = err))
  }

  inflate(block: Uint8Array): Promise<Uint8Array> {
    const next = this.chain.then(
      () =>
        new Promise<Uint8Array>((resolve, reject) => {
          if (this.failure) return reject(this.failure)
          this.zlib.write(block)
          this.zlib.flush(constants.Z_SYNC_FLUSH, () => {
            if (this.failure) return reject(this.failure)
            const bytes = Buffer.concat(this.out.splice(0))
            resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
          })
        }),
    )
    this.chain = next.catch(() => {})
    return next
  }

  close(): void {
    this.zlib.destroy()
  }
}

const zlibHeader = Uint8Array.of(0x78, 0x01)
const maxStored = 0xffff

/**
 * Our own header blocks as zlib "stored" (uncompressed) deflate blocks, each followed by an empty
 * stored block: the sync-flush marker a zlib Z_SYNC_FLUSH writes, after which the peer's inflater
 * hands over what it has without reading further. Every header block thus ends at a flush
 * point, as SPDY requires, with no state to carry between frames (only the first carries the
 * 2-byte zlib header). Our blocks are a few bytes, so compressing them would gain nothing.
 */
export class HeaderDeflater {
  private started = false

  deflate(block: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = []
    if (!this.started) {
      parts.push(zlibHeader)
      this.started = true
    }
    for (let at = 0; at < block.byteLength; at += maxStored)
      parts.push(...storedBlock(block.subarray(at, at + maxStored)))
    parts.push(...storedBlock(new Uint8Array(0)))
    const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
    let at = 0
    for (const p of parts) {
      out.set(p, at)
      at += p.byteLength
    }
    return out
  }
}

/** A non-final stored block: BFINAL=0 and BTYPE=00 in a byte of its own, then LEN and NLEN little-endian. */
function storedBlock(piece: Uint8Array): Uint8Array[] {
  const len = piece.byteLength
  return [Uint8Array.of(0, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff), piece]
}
