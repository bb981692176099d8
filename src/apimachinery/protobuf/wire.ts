/** A protobuf wire-format reader: just enough to walk tags and read varints and length-delimited bytes. */

export const WIRE_VARINT = 0
export const WIRE_FIXED64 = 1
export const WIRE_BYTES = 2
export const WIRE_FIXED32 = 5

export class ProtobufError extends Error {}

// Go keeps a leading BOM in strings, so it is kept here too; invalid UTF-8 is an error.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export function utf8Text(bytes: Uint8Array): string {
  return utf8.decode(bytes)
}

export class WireReader {
  pos = 0
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start
  }

  done(): boolean {
    return this.pos >= this.end
  }

  /** An unsigned varint as a BigInt: int64 values and negative int32 values take all 64 bits. */
  varint(): bigint {
    let result = 0n
    let shift = 0n
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint')
      const b = this.buf[this.pos++]!
      result |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result)
      shift += 7n
    }
    throw new ProtobufError('varint too long')
  }

  /** A signed (two's complement) integer, as int32 and int64 fields carry it. */
  int(): number {
    return Number(BigInt.asIntN(64, this.varint()))
  }

  tag(): { field: number; wire: number } {
    const t = this.varint()
    const field = Number(t >> 3n)
    if (field === 0) throw new ProtobufError('field number 0')
    return { field, wire: Number(t & 7n) }
  }

  bytes(): Uint8Array {
    const len = Number(this.varint())
    if (len > this.end - this.pos) throw new ProtobufError('truncated length-delimited field')
    const out = this.buf.subarray(this.pos, this.pos + len)
    this.pos += len
    return out
  }

  string(): string {
    return utf8Text(this.bytes())
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint()
        return
      case WIRE_FIXED64:
        this.advance(8)
        return
      case WIRE_BYTES:
        this.bytes()
        return
      case WIRE_FIXED32:
        this.advance(4)
        return
      default:
        throw new ProtobufError(`unsupported wire type ${wire}`)
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new ProtobufError('truncated fixed-width field')
    this.pos += n
  }
}
