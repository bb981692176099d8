/**
 * Data frames of the node tunnel: binary WebSocket messages `[streamId u32 BE][channel u8][payload]`.
 * Channels follow the v5.channel.k8s.io numbering so exec frames relay without translation.
 */
export const Channel = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  /** agent → gateway: an HTTP response head (JSON), before its body on stdout */
  head: 3,
  resize: 4,
  /** gateway → agent: the client closed the stream named by the payload's first byte (0: stdin) */
  close: 255,
} as const

const headerBytes = 5

/** Payloads are cut to this size so no frame comes near a WebSocket message limit. */
export const maxPayloadBytes = 64 * 1024

export interface DataFrame {
  id: number
  channel: number
  payload: Uint8Array
}

export function encodeFrame(id: number, channel: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(headerBytes + payload.byteLength)
  new DataView(out.buffer).setUint32(0, id >>> 0)
  out[4] = channel
  out.set(payload, headerBytes)
  return out
}

/** Splits a payload into frames of at most maxPayloadBytes (one frame for an empty payload). */
export function encodeFrames(id: number, channel: number, payload: Uint8Array): Uint8Array[] {
  if (payload.byteLength <= maxPayloadBytes) return [encodeFrame(id, channel, payload)]
  const frames: Uint8Array[] = []
  for (let at = 0; at < payload.byteLength; at += maxPayloadBytes)
    frames.push(encodeFrame(id, channel, payload.subarray(at, at + maxPayloadBytes)))
  return frames
}

/** Undefined for a message too short to hold the header. */
export function decodeFrame(data: ArrayBuffer | ArrayBufferView): DataFrame | undefined {
  // isView rather than instanceof: buffers handed over from another realm fail instanceof ArrayBuffer.
  const bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data)
  if (bytes.byteLength < headerBytes) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { id: view.getUint32(0), channel: bytes[4]!, payload: bytes.subarray(headerBytes) }
}
