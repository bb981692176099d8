import { decodeMessage } from './decode'
import { messageFor } from './kinds'
import { ProtobufError, WIRE_BYTES, WireReader } from './wire'

export { ProtobufError } from './wire'

/** The 4 bytes before every `application/vnd.kubernetes.protobuf` body: "k8s" and a NUL. */
const MAGIC = [0x6b, 0x38, 0x73, 0x00]

/** A body that is valid protobuf but of a kind (or encoding) not decoded here. */
export class UnsupportedProtobufKind extends Error {}

interface Unknown {
  apiVersion: string
  kind: string
  raw: Uint8Array
  contentEncoding: string
}

/**
 * Decodes a Kubernetes protobuf body (the magic prefix, then runtime.Unknown {typeMeta = 1
 * {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}) into the object its
 * JSON encoding would be, with apiVersion and kind first.
 */
export function decodeProtobufBody(body: Uint8Array): Record<string, unknown> {
  if (body.length < MAGIC.length || MAGIC.some((b, i) => body[i] !== b))
    throw new ProtobufError('missing the "k8s\\x00" prefix')
  const unknown = readUnknown(body.subarray(MAGIC.length))
  if (unknown.contentEncoding !== '')
    throw new UnsupportedProtobufKind(
      `content encoding ${JSON.stringify(unknown.contentEncoding)} is not supported`,
    )
  if (unknown.kind === '') throw new UnsupportedProtobufKind('the protobuf body names no kind')
  const table = messageFor(unknown.apiVersion, unknown.kind)
  if (!table)
    throw new UnsupportedProtobufKind(
      `protobuf bodies of kind ${unknown.apiVersion}/${unknown.kind} are not supported; send JSON`,
    )
  return {
    apiVersion: unknown.apiVersion,
    kind: unknown.kind,
    ...decodeMessage(table, unknown.raw),
  }
}

function readUnknown(buf: Uint8Array): Unknown {
  const out: Unknown = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '' }
  const r = new WireReader(buf)
  while (!r.done()) {
    const { field, wire } = r.tag()
    if (wire !== WIRE_BYTES) {
      r.skip(wire)
    } else if (field === 1) {
      const t = new WireReader(r.bytes())
      while (!t.done()) {
        const tag = t.tag()
        if (tag.field === 1 && tag.wire === WIRE_BYTES) out.apiVersion = t.string()
        else if (tag.field === 2 && tag.wire === WIRE_BYTES) out.kind = t.string()
        else t.skip(tag.wire)
      }
    } else if (field === 2) {
      out.raw = r.bytes()
    } else if (field === 3) {
      out.contentEncoding = r.string()
    } else {
      r.skip(wire)
    }
  }
  return out
}
