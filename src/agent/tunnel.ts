import WebSocket from 'ws'
import type { LogOptions } from '../agent-protocol/log-options'
import type { ContainerRuntime, ContainerState, ExecStreams } from './runtime/types'
import { ResizeChannel } from './resize-channel'
import { Channel, decodeFrame, encodeFrames, type DataFrame } from '../agent-protocol/data-frames'
import { servePortForward } from './portforward/serve'
import { serveHttp } from './proxy/http'
import { serveWebSocket } from './proxy/websocket'
import { serveTcp } from './proxy/tcp'
import type { StreamOutput } from './stream-output'
import {
  agentStreamBit,
  parseGatewayMessage,
  pingText,
  pongText,
  tunnelReplacedCode,
  tunnelRevokedCode,
  type Dial,
  type End,
  type ExecOpen,
  type LogsOpen,
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
/** Log reading pauses while this much is queued on the socket, so a fast log cannot fill memory. */
const maxBufferedBytes = 8 * 1024 * 1024
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

interface Session {
  cancel(): void
  input(frame: DataFrame): void
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

/** What a stream writes back through the tunnel. */
type Output = StreamOutput

function output(socket: WebSocket, id: number, sessions: Map<number, Session>): Output {
  let ended = false
  const live = () => !ended && socket.readyState === WebSocket.OPEN
  return {
    data(channel, chunk) {
      if (!live() || chunk.byteLength === 0) return
      for (const frame of encodeFrames(id, channel, chunk)) socket.send(frame)
    },
    end(end) {
      if (ended) return
      ended = true
      sessions.delete(id)
      if (socket.readyState === WebSocket.OPEN)
        socket.send(JSON.stringify({ op: 'end', id, ...end }))
    },
    async drained() {
      while (live() && socket.bufferedAmount > maxBufferedBytes)
        await new Promise((r) => setTimeout(r, 10))
    },
    congested: () => live() && socket.bufferedAmount > maxBufferedBytes,
  }
}

/**
 * Why a container has no log to show yet, when the runtime cannot say: a pod it does not know is
 * one still being created, which the kubelet reports as waiting to start. Every other refusal
 * (no previous instance, not started) is the runtime's, raised on the first read.
 */
export function logProblem(
  states: ContainerState[] | undefined,
  pod: string,
  opts: LogOptions,
): string | undefined {
  if (states !== undefined) return undefined
  return `container "${opts.container}" in pod "${pod}" is waiting to start: ContainerCreating`
}

const CANCELLED = Symbol('cancelled')

function serveLogs(runtime: ContainerRuntime, msg: LogsOpen, out: Output): Session {
  let cancel: () => void = () => {}
  const cancelled = new Promise<typeof CANCELLED>((resolve) => (cancel = () => resolve(CANCELLED)))
  let stopped = false
  void (async () => {
    const problem = logProblem(runtime.status(msg.podUid), msg.pod, msg.opts)
    if (problem) return out.end({ error: problem })
    let it: AsyncIterator<Uint8Array> | undefined
    let left = msg.opts.limitBytes ?? Infinity
    try {
      it = runtime.logs(msg.podUid, msg.opts)[Symbol.asyncIterator]()
      for (;;) {
        // Raced, so a cancel ends a quiet `follow` at once rather than at its next line.
        const next = await Promise.race([it.next(), cancelled])
        if (next === CANCELLED || next.done) break
        const chunk = next.value.byteLength > left ? next.value.subarray(0, left) : next.value
        left -= chunk.byteLength
        out.data(Channel.stdout, chunk)
        if (left <= 0) break
        await Promise.race([out.drained(), cancelled])
        if (stopped) break
      }
      if (!stopped) out.end({})
    } catch (err) {
      out.end({ error: err instanceof Error ? err.message : String(err) })
    } finally {
      it?.return?.().catch(() => {})
    }
  })()
  return {
    cancel: () => {
      stopped = true
      cancel()
    },
    input: () => {},
  }
}

function serveExec(runtime: ContainerRuntime, msg: ExecOpen, out: Output): Session {
  const stdin = msg.stdin ? new ByteQueue() : undefined
  let cancelled = false
  const abort = new AbortController()
  const resize = new ResizeChannel()
  const streams: ExecStreams = {
    stdin,
    signal: abort.signal,
    tty: !!msg.tty,
    onResize: (listener) => resize.listen(listener),
    stdout: (chunk: Uint8Array) => !cancelled && out.data(Channel.stdout, chunk),
    // A terminal has one output stream.
    stderr: (chunk: Uint8Array) =>
      !cancelled && out.data(msg.tty ? Channel.stdout : Channel.stderr, chunk),
  }
  const attach = () =>
    runtime.attach
      ? runtime.attach(msg.podUid, msg.container, streams)
      : Promise.reject(new Error("this node's runtime cannot attach to a container's process"))
  ;(msg.attach ? attach() : runtime.exec(msg.podUid, msg.container, msg.command, streams)).then(
    (exitCode) => out.end({ exitCode }),
    (err: unknown) =>
      out.end({
        error: `error ${msg.attach ? 'attaching to' : 'executing command in'} container: ${err instanceof Error ? err.message : String(err)}`,
      }),
  )
  return {
    cancel: () => {
      // The client left: its stdin ends, and whatever the command still prints goes nowhere.
      cancelled = true
      stdin?.end()
      abort.abort()
    },
    input: (frame) => {
      if (frame.channel === Channel.stdin) stdin?.push(frame.payload.slice())
      else if (
        frame.channel === Channel.close &&
        (frame.payload[0] ?? Channel.stdin) === Channel.stdin
      )
        stdin?.end()
      else if (frame.channel === Channel.resize && msg.tty) resize.push(frame.payload)
    },
  }
}

/** stdin as an async iterable: chunks in arrival order, ended by the client's close. */
export class ByteQueue implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = []
  private ended = false
  private wake: (() => void) | undefined

  push(chunk: Uint8Array): void {
    if (this.ended) return
    this.chunks.push(chunk)
    this.wake?.()
  }

  end(): void {
    this.ended = true
    this.wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift()
      if (chunk) {
        yield chunk
        continue
      }
      if (this.ended) return
      await new Promise<void>((resolve) => (this.wake = resolve))
      this.wake = undefined
    }
  }
}

function toBytes(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data))
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
}
