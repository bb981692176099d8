import WebSocket from 'ws'
import type { ContainerRuntime } from './runtime/types'
import { Channel, decodeFrame, encodeFrames } from '../agent-protocol/data-frames'
import { servePortForward } from './portforward/serve'
import { serveHttp } from './proxy/http'
import { serveWebSocket } from './proxy/websocket'
import { serveTcp } from './proxy/tcp'
import {
  maxBufferedBytes,
  output,
  serveExec,
  serveLogs,
  toBytes,
  type Session,
} from './tunnel-sessions'
import {
  agentStreamBit,
  parseGatewayMessage,
  pingText,
  pongText,
  tunnelReplacedCode,
  tunnelRevokedCode,
  type Dial,
} from '../agent-protocol/tunnel-messages'

export interface TunnelOptions {
  /** The API server URL from the kubeconfig (https://host:port). */
  server: string
  /** PEM of the cluster CA from the kubeconfig; the system roots when absent. */
  ca?: string | Buffer
  /** The node's own credential (see credentials.ts); none for an anonymous dev server. */
  token?: string
  nodeName: string
  runtime: ContainerRuntime
  log?: (message: string) => void
  /** per-stream detail (opened, cancelled), for troubleshooting */
  debug?: (message: string) => void
  /** kubeconfig `insecure-skip-tls-verify` */
  insecureSkipTLSVerify?: boolean
}

export interface Tunnel {
  /** Whether the tunnel is open right now. */
  connected(): boolean
  /**
   * Opens a stream to a pod on another node through the gateways (a NodePort connection); the
   * gateway checks that the pod is an endpoint of the Service. Undefined while the tunnel is down.
   */
  dial(request: Omit<Dial, 'op' | 'id'>, handlers: DialHandlers): DialStream | undefined
  /** Stops reconnecting, ends every stream and closes the tunnel. */
  close(): Promise<void>
}

/** What comes back on a dialled stream: channel 3 once the pod accepted, its bytes on 1; then the end. */
export interface DialHandlers {
  data(channel: number, payload: Uint8Array): void
  end(error?: string): void
}

export interface DialStream {
  /** bytes for the pod (channel 0) */
  write(bytes: Uint8Array): void
  /** no more bytes for the pod (channel 255) */
  endInput(): void
  /** ends the stream at both ends */
  close(): void
  drained(): Promise<void>
  congested(): boolean
}

/** Reconnect delays: 800 ms doubling to 30 s, each drawn from ±20 % so a fleet does not redial in step. */
export const backoff = { initialMs: 800, maxMs: 30_000, factor: 2, jitter: 0.2 }
/** A keepalive every 20 s; no answer for 60 s means the path is dead (a NAT forgot it), so redial. */
const pingIntervalMs = 20_000
const deadAfterMs = 60_000
/** After the gateway says a newer tunnel replaced this one, redial starts near the longest delay. */
const replacedAttempt = 5

export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** attempt)
  return Math.round(
    Math.min(backoff.maxMs, base * (1 - backoff.jitter + 2 * backoff.jitter * random())),
  )
}

/** The tunnel's URL below the server URL (which may carry a path prefix). */
export function tunnelUrl(server: string, nodeName: string): string {
  const url = new URL(server)
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:'
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/agent/v1/nodes/${encodeURIComponent(nodeName)}/tunnel`
  return url.toString()
}

/**
 * Dials the node's tunnel to the API server and keeps it up: the server reaches this node's
 * containers (logs, exec, port-forward) over a connection the node opened, so nodes behind NAT need no open port.
 */
export function connectTunnel(opts: TunnelOptions): Tunnel {
  const log = opts.log ?? (() => {})
  const debug = opts.debug ?? (() => {})
  const url = tunnelUrl(opts.server, opts.nodeName)
  const sessions = new Map<number, Session>()
  const dialled = new Map<number, DialHandlers>()
  let nextDialId = 0
  let ws: WebSocket | undefined
  let open = false
  let stopped = false
  let attempt = 0
  let retryTimer: NodeJS.Timeout | undefined
  let pingTimer: NodeJS.Timeout | undefined
  let lastPong = 0

  const dial = () => {
    retryTimer = undefined
    if (stopped) return
    const headers: Record<string, string> = {}
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`
    const socket = new WebSocket(url, {
      headers,
      ca: opts.ca,
      rejectUnauthorized: !opts.insecureSkipTLSVerify,
      handshakeTimeout: 10_000,
      perMessageDeflate: false,
    })
    ws = socket
    socket.on('open', () => {
      open = true
      attempt = 0
      lastPong = Date.now()
      log(`tunnel to ${url} open`)
      pingTimer = setInterval(() => {
        if (Date.now() - lastPong > deadAfterMs) {
          log('tunnel: no keepalive answer, reconnecting')
          socket.terminate()
          return
        }
        if (socket.readyState === WebSocket.OPEN) socket.send(pingText)
      }, pingIntervalMs)
    })
    socket.on('message', (data, isBinary) => {
      if (!isBinary) return onText(socket, data.toString())
      const frame = decodeFrame(toBytes(data))
      if (frame && frame.id & agentStreamBit)
        dialled.get(frame.id)?.data(frame.channel, frame.payload)
      else if (frame) sessions.get(frame.id)?.input(frame)
    })
    socket.on('error', (err) => log(`tunnel: ${err.message}`))
    socket.on('close', (code, reason) => {
      clearInterval(pingTimer)
      if (open) log(`tunnel closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`)
      open = false
      if (ws === socket) ws = undefined
      // The gateway ends every stream of a closed tunnel; nothing here outlives it.
      for (const s of sessions.values()) s.cancel()
      sessions.clear()
      endDialled('the tunnel closed')
      if (stopped) return
      // Another connection took this node's tunnel: a second agent for the same node is running.
      // Redialling at once would only take it back, so wait long before trying again.
      if (code === tunnelRevokedCode)
        log(`tunnel: node ${opts.nodeName}'s credential was revoked; the agent must join again`)
      if (code === tunnelReplacedCode) {
        log(
          `tunnel: another connection for node ${opts.nodeName} replaced this one; is a second agent running?`,
        )
        attempt = Math.max(attempt, replacedAttempt)
      }
      const delay = backoffDelay(attempt++)
      retryTimer = setTimeout(dial, delay)
    })
  }

  const onText = (socket: WebSocket, text: string) => {
    if (text === pongText) {
      lastPong = Date.now()
      return
    }
    lastPong = Date.now()
    const msg = parseGatewayMessage(text)
    if (!msg) return debug(`tunnel: ignoring an unknown message: ${text.slice(0, 200)}`)
    if (msg.op === 'end') {
      const handlers = dialled.get(msg.id)
      dialled.delete(msg.id)
      handlers?.end(msg.error)
      return
    }
    if (msg.op === 'cancel') {
      debug(`tunnel: stream ${msg.id} cancelled by the server`)
      sessions.get(msg.id)?.cancel()
      sessions.delete(msg.id)
      return
    }
    debug(`tunnel: stream ${msg.id} opened: ${msg.op} ${msg.namespace ?? ''}/${msg.pod ?? ''}`)
    const out = output(socket, msg.id, sessions)
    if (msg.op === 'logs') sessions.set(msg.id, serveLogs(opts.runtime, msg, out))
    else if (msg.op === 'portforward')
      sessions.set(msg.id, servePortForward(opts.runtime, msg, out))
    else if (msg.op === 'http') sessions.set(msg.id, serveHttp(opts.runtime, msg, out))
    else if (msg.op === 'websocket') sessions.set(msg.id, serveWebSocket(opts.runtime, msg, out))
    else if (msg.op === 'tcp') sessions.set(msg.id, serveTcp(opts.runtime, msg, out))
    else sessions.set(msg.id, serveExec(opts.runtime, msg, out))
  }

  const endDialled = (error: string) => {
    const all = [...dialled.values()]
    dialled.clear()
    for (const h of all) h.end(error)
  }

  const dialStream = (
    request: Omit<Dial, 'op' | 'id'>,
    handlers: DialHandlers,
  ): DialStream | undefined => {
    const socket = ws
    if (!open || !socket || socket.readyState !== WebSocket.OPEN) return undefined
    let id: number
    do {
      nextDialId = (nextDialId + 1) & ~agentStreamBit
      id = (nextDialId | agentStreamBit) >>> 0
    } while (dialled.has(id))
    dialled.set(id, handlers)
    socket.send(JSON.stringify({ op: 'dial', id, ...request } satisfies Dial))
    const live = () => dialled.has(id) && socket.readyState === WebSocket.OPEN
    return {
      write(bytes) {
        if (live()) for (const frame of encodeFrames(id, Channel.stdin, bytes)) socket.send(frame)
      },
      endInput() {
        if (live()) socket.send(encodeFrames(id, Channel.close, Uint8Array.of(Channel.stdin))[0]!)
      },
      close() {
        if (!dialled.delete(id)) return
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: 'end', id }))
      },
      async drained() {
        while (live() && socket.bufferedAmount > maxBufferedBytes)
          await new Promise((r) => setTimeout(r, 10))
      },
      congested: () => live() && socket.bufferedAmount > maxBufferedBytes,
    }
  }

  dial()
  return {
    connected: () => open,
    dial: dialStream,
    close: () => {
      stopped = true
      clearTimeout(retryTimer)
      for (const s of sessions.values()) s.cancel()
      sessions.clear()
      endDialled('the agent is stopping')
      const socket = ws
      if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => socket.terminate(), 2_000)
        socket.once('close', () => {
          clearTimeout(force)
          resolve()
        })
        if (socket.readyState === WebSocket.CONNECTING) socket.terminate()
        else socket.close(1000, 'agent stopping')
      })
    },
  }
}
