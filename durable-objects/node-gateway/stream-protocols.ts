/**
 * The WebSocket subprotocols of pod streams, as kube-apiserver and the kubelet serve them
 * together: the API server takes `v5.channel.k8s.io` exec and attach (offered anywhere in the
 * list) and kubectl's SPDY port-forward tunnel; every other request reaches the kubelet, which
 * picks the first protocol offered that it knows, or raw channels when none is offered.
 */

/** exec and attach: channels 0-4, the Status on 3 as JSON, and 255 closes a client stream. */
export const v5Channel = 'v5.channel.k8s.io'
/** exec, attach and port-forward: channels with the Status on 3 as JSON. */
export const v4Channel = 'v4.channel.k8s.io'
export const v4Base64Channel = 'v4.base64.channel.k8s.io'
/** exec and attach: channels with only a failure's message on 3, as text. */
export const v1Channel = 'channel.k8s.io'
export const v1Base64Channel = 'base64.channel.k8s.io'
/** port-forward as kubectl 1.30+ dials it: SPDY/3.1 frames inside binary messages. */
export const spdyPortForward = 'SPDY/3.1+portforward.k8s.io'

export type StreamKind = 'exec' | 'portforward'

/** The protocols the kubelet knows for each kind (after the API server's own); '' is none offered. */
const kubeletProtocols: Record<StreamKind, string[]> = {
  exec: [v1Channel, v1Base64Channel, v4Channel, v4Base64Channel],
  portforward: [v4Channel, v4Base64Channel],
}
const apiServerProtocol: Record<StreamKind, string> = {
  exec: v5Channel,
  portforward: spdyPortForward,
}

/** Every protocol served for a kind, for messages. */
export function supportedProtocols(kind: StreamKind): string[] {
  return [apiServerProtocol[kind], ...kubeletProtocols[kind]]
}

/** The protocols a `Sec-WebSocket-Protocol` header offers, in order. */
export function offeredProtocols(header: string | null): string[] {
  return (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
}

/**
 * The protocol chosen for what the client offered: the API server's own when offered at all,
 * else the first the kubelet knows, else '' (raw channels) when nothing was offered; undefined
 * when protocols were offered and none is served.
 */
export function negotiateProtocol(kind: StreamKind, offered: string[]): string | undefined {
  if (offered.includes(apiServerProtocol[kind])) return apiServerProtocol[kind]
  if (offered.length === 0) return ''
  return offered.find((p) => kubeletProtocols[kind].includes(p))
}

/** Frames are text, the channel an ASCII digit and the payload base64. */
export function isBase64(protocol: string): boolean {
  return protocol === v1Base64Channel || protocol === v4Base64Channel
}

/** The error channel carries a JSON Status (v4 and v5); otherwise a failure's message only. */
export function statusIsJson(protocol: string): boolean {
  return protocol === v5Channel || protocol === v4Channel || protocol === v4Base64Channel
}

/** The client may close its stdin with channel 255. */
export function hasCloseChannel(protocol: string): boolean {
  return protocol === v5Channel
}

/** One channel message in the protocol's framing: `[channel][payload]` binary, or `'0'+channel` then base64 as text. */
export function encodeChannel(
  protocol: string,
  channel: number,
  payload: Uint8Array,
): Uint8Array | string {
  if (isBase64(protocol)) return String.fromCharCode(48 + channel) + toBase64(payload)
  const out = new Uint8Array(payload.byteLength + 1)
  out[0] = channel
  out.set(payload, 1)
  return out
}

/**
 * A client's message read as the kubelet reads it: text and binary messages alike, their bytes
 * the frame; base64 protocols decode the payload and take the channel from its digit. Undefined
 * for an empty message or a payload that is not base64.
 */
export function decodeChannel(
  protocol: string,
  message: string | ArrayBuffer,
): { channel: number; payload: Uint8Array } | undefined {
  const bytes =
    typeof message === 'string' ? new TextEncoder().encode(message) : new Uint8Array(message)
  if (bytes.byteLength === 0) return undefined
  if (!isBase64(protocol)) return { channel: bytes[0]!, payload: bytes.subarray(1) }
  const payload = fromBase64(new TextDecoder().decode(bytes.subarray(1)))
  if (!payload) return undefined
  return { channel: (bytes[0]! - 48) & 0xff, payload }
}

function toBase64(bytes: Uint8Array): string {
  let text = ''
  for (let at = 0; at < bytes.byteLength; at += 0x8000)
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(text)
}

function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined
  const raw = atob(text)
  const out = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}
