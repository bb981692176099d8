import { Channel } from '../../src/agent-protocol/data-frames'
import type { End } from '../../src/agent-protocol/tunnel-messages'
import { execStatus, statusPayload } from './exec-status'
import {
  decodeChannel,
  encodeChannel,
  hasCloseChannel,
  spdyPortForward,
  v5Channel,
} from './stream-protocols'

/** A client stream's socket at the gateway: kept on the socket so every relay decision survives hibernation. */
export interface ClientAttachment {
  role: 'client'
  id: number
  kind: 'logs' | 'exec' | 'portforward' | 'http' | 'websocket' | 'tcp'
  conn: string
  node: string
  stdout: boolean
  stderr: boolean
  command: string[]
  /** exec and port-forward: the subprotocol agreed with the client ('' when it offered none) */
  protocol?: string
  /** port-forward over channels: the pod's ports, port i on data channel 2i and error channel 2i+1 */
  ports?: number[]
}

type Message = Uint8Array | string

/** exec's error channel: where the Status goes. */
const errorChannel = 3

const protocolOf = (att: ClientAttachment) =>
  att.protocol ?? (att.kind === 'portforward' ? spdyPortForward : v5Channel)

/** Port-forward in the kubelet's WebSocket form (channels per port), rather than kubectl's SPDY tunnel. */
export function forwardsOverChannels(att: ClientAttachment): boolean {
  return att.kind === 'portforward' && (att.ports?.length ?? 0) > 0
}

/**
 * What the client gets as soon as its socket is open, as the kubelet writes it: exec an empty
 * message on its lowest writable channel (stdout, else stderr, else the error channel);
 * port-forward the port number (2 bytes, little-endian) first on each port's two channels.
 */
export function openingMessages(att: ClientAttachment): Message[] {
  const protocol = protocolOf(att)
  if (att.kind === 'exec') {
    const channel = att.stdout ? Channel.stdout : att.stderr ? Channel.stderr : errorChannel
    return [encodeChannel(protocol, channel, new Uint8Array(0))]
  }
  if (!forwardsOverChannels(att)) return []
  return att.ports!.flatMap((port, i) => {
    const bytes = Uint8Array.of(port & 0xff, port >> 8)
    return [encodeChannel(protocol, 2 * i, bytes), encodeChannel(protocol, 2 * i + 1, bytes)]
  })
}

/**
 * An agent frame of a logs, exec or port-forward stream as its client gets it: exec's output and a
 * port's channels framed in the client's protocol, log bytes and SPDY bytes as they are;
 * undefined when the client has no such channel.
 */
export function toClient(
  att: ClientAttachment,
  channel: number,
  payload: Uint8Array,
): Message | undefined {
  if (att.kind === 'exec') {
    const wanted =
      channel === Channel.stdout ? att.stdout : channel === Channel.stderr ? att.stderr : false
    return wanted ? encodeChannel(protocolOf(att), channel, payload) : undefined
  }
  if (forwardsOverChannels(att))
    return channel < 2 * att.ports!.length
      ? encodeChannel(protocolOf(att), channel, payload)
      : undefined
  return channel === Channel.stdout ? payload : undefined
}

/**
 * A client's message as the channel and bytes it goes to the agent with. exec reads it in its
 * protocol, text and binary alike: stdin (0), resize (4) and, in v5, close (255); port-forward
 * over channels a port's data channel (2i). Anything else is dropped, as the kubelet drops frames
 * for channels it does not read. kubectl's SPDY bytes go on channel 0 whatever their message
 * boundaries; a proxied request's body on 0 and its end on 255, in binary messages.
 */
export function fromClient(
  att: ClientAttachment,
  message: string | ArrayBuffer,
): { channel: number; payload: Uint8Array } | undefined {
  if (att.kind === 'logs' || att.kind === 'websocket') return undefined
  if (att.kind === 'portforward' && !forwardsOverChannels(att)) {
    const bytes =
      typeof message === 'string' ? new TextEncoder().encode(message) : new Uint8Array(message)
    return bytes.byteLength > 0 ? { channel: Channel.stdin, payload: bytes } : undefined
  }
  if (att.kind === 'http' || att.kind === 'tcp') {
    const bytes = typeof message === 'string' ? new Uint8Array(0) : new Uint8Array(message)
    return bytes[0] === Channel.stdin || bytes[0] === Channel.close
      ? { channel: bytes[0], payload: bytes.subarray(1) }
      : undefined
  }
  const protocol = protocolOf(att)
  const frame = decodeChannel(protocol, message)
  if (!frame) return undefined
  if (att.kind === 'exec') {
    const { channel } = frame
    if (
      channel === Channel.stdin ||
      channel === Channel.resize ||
      (channel === Channel.close && hasCloseChannel(protocol))
    )
      return frame
    return undefined
  }
  if (forwardsOverChannels(att) && frame.channel % 2 === 0 && frame.channel < 2 * att.ports!.length)
    return frame
  return undefined
}

/** exec's last message: the Status on channel 3 in the protocol's form; undefined when it has nothing to say (a success without JSON). */
export function execEndMessage(
  att: ClientAttachment,
  end: Pick<End, 'exitCode' | 'error'>,
): Message | undefined {
  const protocol = protocolOf(att)
  const payload = statusPayload(protocol, execStatus(end, att.command))
  return payload ? encodeChannel(protocol, errorChannel, payload) : undefined
}
