import WebSocket from 'ws'
import type { ContainerRuntime } from '../runtime/types'
import type { WebSocketOpen } from '../../agent-protocol/tunnel-messages'
import { Channel, type DataFrame } from '../../agent-protocol/data-frames'
import type { StreamOutput } from '../stream-output'
import { hopByHop } from './http'

/** Message kinds on a proxied WebSocket stream: binary on channel 1, text on channel 2. */
const binaryChannel = Channel.stdout
const textChannel = Channel.stderr

/** Handshake headers the WebSocket client sets itself. */
const ownHeaders = new Set([
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'host',
])

/**
 * A WebSocket to a pod's port on this node, for the edge (Ingress) and the API proxies: the
 * client's messages come in as frames and go out to the pod as messages of the same kind, and back.
 */
export function serveWebSocket(runtime: ContainerRuntime, msg: WebSocketOpen, out: StreamOutput) {
  const hosts = runtime.portHosts?.(msg.podUid)
  if (!hosts?.length) {
    out.end({
      error: runtime.portHosts
        ? `pod not found ("${msg.pod}_${msg.namespace}")`
        : 'this node runs simulated containers, which listen on no ports',
    })
    return { cancel: () => {}, input: () => {} }
  }
  const host = hosts[0]!
  const headers: Record<string, string> = {}
  let protocols: string[] = []
  for (const [name, value] of msg.headers) {
    const key = name.toLowerCase()
    if (key === 'sec-websocket-protocol')
      protocols = value
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    else if (!hopByHop.has(key) && !ownHeaders.has(key)) headers[key] = value
  }
  const authority = host.includes(':') ? `[${host}]:${msg.port}` : `${host}:${msg.port}`
  const pending: Array<{ data: Buffer; binary: boolean }> = []
  let ended = false
  const finish = (error?: string) => {
    if (ended) return
    ended = true
    out.end(error ? { error } : {})
  }
  const ws = new WebSocket(`ws://${authority}${msg.path}`, protocols, {
    headers,
    perMessageDeflate: false,
  })
  ws.on('open', () => {
    for (const m of pending.splice(0)) ws.send(m.data, { binary: m.binary })
  })
  ws.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
    out.data(isBinary ? binaryChannel : textChannel, bytes)
  })
  ws.on('close', () => finish())
  ws.on('error', (err) => finish(err.message))
  return {
    cancel: () => {
      ended = true
      ws.terminate()
    },
    input: (frame: DataFrame) => {
      if (frame.channel !== binaryChannel && frame.channel !== textChannel) return
      const m = { data: Buffer.from(frame.payload), binary: frame.channel === binaryChannel }
      if (ws.readyState === WebSocket.OPEN) ws.send(m.data, { binary: m.binary })
      else if (ws.readyState === WebSocket.CONNECTING) pending.push(m)
    },
  }
}
