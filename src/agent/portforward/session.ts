import { connect, type Socket } from 'node:net'
import {
  ControlType,
  FrameReader,
  RstStatus,
  controlFrame,
  controlStreamId,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  finFlag,
  headersHeaderBlock,
  rstStreamFrame,
  synReplyFrame,
  synStreamHeaderBlock,
  type Frame,
} from './spdy-frames'
import { HeaderDeflater, HeaderInflater } from './spdy-headers'

/** Where a pod's ports are reached, as the node's runtime says. */
export interface PortForwardTarget {
  /** `namespace/name`, for messages */
  pod: string
  uid: string
  /** addresses tried in order for each connection (IPv4 loopback, then IPv6, for host-network pods) */
  hosts: string[]
  /** why the pod's ports cannot be reached at all; each connection then gets this error */
  problem?: string
}

/** The client side of the tunnel stream: SPDY bytes out, with back-pressure. */
export interface ByteSink {
  write(bytes: Uint8Array): void
  /** resolves once the queue toward the client is short again */
  drained(): Promise<void>
  /** whether the queue toward the client is long (the pod's socket pauses until drained) */
  congested(): boolean
}

/** One forwarded connection: kubectl's error and data streams sharing a requestID. */
interface Pair {
  requestId: string
  port: string
  dataStream?: number
  errorStream?: number
  socket?: Socket
  connected: boolean
  /** bytes from the client before the pod's socket connected */
  pending: Uint8Array[]
  clientDone: boolean
  dataFinSent: boolean
  errorFinSent: boolean
}

/**
 * The kubelet's side of port-forward (portforward.k8s.io over SPDY/3.1): every connection kubectl
 * accepts opens an error stream and a data stream with the same `requestID` and `port`; the data
 * stream is joined to a TCP connection to the pod's port, and a failure is written to the error
 * stream, which kubectl prints, before both streams are finished.
 */
export class PortForwardSession {
  private readonly reader = new FrameReader()
  private readonly inflater = new HeaderInflater()
  private readonly deflater = new HeaderDeflater()
  private readonly streams = new Map<number, { pair: Pair; type: 'data' | 'error' }>()
  private readonly pairs = new Map<string, Pair>()
  private readonly queue: Frame[] = []
  private running = false
  private closed = false

  constructor(
    private readonly target: PortForwardTarget,
    private readonly sink: ByteSink,
  ) {}

  /** Bytes from kubectl (its WebSocket messages, in order). */
  input(bytes: Uint8Array): void {
    if (this.closed) return
    this.queue.push(...this.reader.push(bytes))
    if (!this.running) void this.run()
  }

  /** The client left: every connection to the pod is dropped. */
  close(): void {
    this.closed = true
    this.queue.length = 0
    for (const pair of this.pairs.values()) pair.socket?.destroy()
    this.pairs.clear()
    this.streams.clear()
    this.inflater.close()
  }

  private async run(): Promise<void> {
    this.running = true
    try {
      while (!this.closed && this.queue.length > 0) {
        const frame = this.queue.shift()!
        if (frame.control && frame.type === ControlType.synStream) await this.onSynStream(frame)
        else if (frame.control) await this.onControl(frame)
        else this.onData(frame.streamId, frame.flags, frame.data)
      }
    } catch {
      // A header block that does not inflate: the connection is beyond repair.
      this.send(controlFrame(ControlType.goAway, 0, new Uint8Array(8)))
      this.close()
    } finally {
      this.running = false
    }
  }

  private send(bytes: Uint8Array): void {
    if (!this.closed) this.sink.write(bytes)
  }

  private async onSynStream(frame: Extract<Frame, { control: true }>): Promise<void> {
    const id = controlStreamId(frame)
    const headers = decodeHeaderBlock(await this.inflater.inflate(synStreamHeaderBlock(frame)))
    if (this.closed) return
    const type = headers?.get('streamtype')
    const requestId = headers?.get('requestid')
    const port = headers?.get('port') ?? ''
    if ((type !== 'data' && type !== 'error') || requestId === undefined) {
      this.send(rstStreamFrame(id, RstStatus.protocolError))
      return
    }
    this.send(synReplyFrame(id, this.deflater.deflate(encodeHeaderBlock([]))))
    let pair = this.pairs.get(requestId)
    if (!pair) {
      pair = {
        requestId,
        port,
        connected: false,
        pending: [],
        clientDone: false,
        dataFinSent: false,
        errorFinSent: false,
      }
      this.pairs.set(requestId, pair)
    }
    if (type === 'data') pair.dataStream = id
    else pair.errorStream = id
    this.streams.set(id, { pair, type })
    if (type === 'data' && frame.flags & finFlag) pair.clientDone = true
    if (pair.dataStream !== undefined && pair.errorStream !== undefined) this.start(pair)
  }

  private async onControl(frame: Extract<Frame, { control: true }>): Promise<void> {
    switch (frame.type) {
      case ControlType.ping:
        // A ping is answered with the same id.
        this.send(controlFrame(ControlType.ping, 0, frame.data))
        return
      case ControlType.rstStream: {
        const entry = this.streams.get(controlStreamId(frame))
        if (!entry) return
        if (entry.type === 'data') {
          entry.pair.dataFinSent = true
          entry.pair.socket?.destroy()
          this.finish(entry.pair)
        } else entry.pair.errorFinSent = true
        return
      }
      case ControlType.headers: {
        // Header blocks share one zlib stream: inflate even those with nothing to say.
        await this.inflater.inflate(headersHeaderBlock(frame))
        if (frame.flags & finFlag) this.onData(controlStreamId(frame), finFlag, new Uint8Array(0))
        return
      }
      default:
      // SETTINGS, WINDOW_UPDATE, GOAWAY: nothing to do (no flow control is enforced).
    }
  }

  private onData(streamId: number, flags: number, data: Uint8Array): void {
    const entry = this.streams.get(streamId)
    if (!entry || entry.type !== 'data') return
    const pair = entry.pair
    if (data.byteLength > 0) {
      if (pair.connected) pair.socket!.write(data)
      else if (!pair.socket?.destroyed) pair.pending.push(data.slice())
    }
    if (flags & finFlag) {
      pair.clientDone = true
      if (pair.connected) pair.socket!.end()
    }
  }

  private start(pair: Pair): void {
    const port = Number(pair.port)
    if (!/^\d+$/.test(pair.port) || port < 1 || port > 65535)
      return this.fail(pair, `invalid port "${pair.port}"`)
    if (this.target.problem) return this.fail(pair, this.target.problem)
    this.dial(pair, port, 0, [])
  }

  private dial(pair: Pair, port: number, index: number, errors: string[]): void {
    const host = this.target.hosts[index]
    if (host === undefined) return this.fail(pair, errors.join(' '))
    const socket = connect({ host, port })
    pair.socket = socket
    socket.setNoDelay(true)
    socket.once('connect', () => {
      pair.connected = true
      for (const chunk of pair.pending.splice(0)) socket.write(chunk)
      if (pair.clientDone) socket.end()
    })
    socket.on('data', (chunk: Buffer) => {
      if (pair.dataFinSent) return
      this.send(dataFrame(pair.dataStream!, chunk))
      if (this.sink.congested()) {
        socket.pause()
        void this.sink.drained().then(() => socket.resume())
      }
    })
    socket.on('end', () => this.finishData(pair))
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (pair.connected || this.closed) return
      // Not reachable at this address: try the next before reporting.
      errors.push(dialError(host, port, err))
      this.dial(pair, port, index + 1, errors)
    })
    socket.on('close', () => {
      if (pair.socket !== socket || !pair.connected) return
      this.finish(pair)
    })
  }

  private finishData(pair: Pair): void {
    if (pair.dataFinSent) return
    pair.dataFinSent = true
    this.send(dataFrame(pair.dataStream!, new Uint8Array(0), true))
  }

  /** Both streams end; kubectl then lets the local connection go. */
  private finish(pair: Pair): void {
    this.finishData(pair)
    if (!pair.errorFinSent) {
      pair.errorFinSent = true
      this.send(dataFrame(pair.errorStream!, new Uint8Array(0), true))
    }
    this.pairs.delete(pair.requestId)
    this.streams.delete(pair.dataStream!)
    this.streams.delete(pair.errorStream!)
  }

  /** As the kubelet words it; kubectl prints it as "an error occurred forwarding L -> R: …". */
  private fail(pair: Pair, reason: string): void {
    const message = `error forwarding port ${pair.port} to pod ${this.target.pod}, uid ${this.target.uid}: ${reason}`
    // The message and the stream's end in one frame; finish() then ends the data stream.
    this.send(dataFrame(pair.errorStream!, new TextEncoder().encode(message), true))
    pair.errorFinSent = true
    this.finish(pair)
  }
}

/** A failed dial in Go's words (`dial tcp4 127.0.0.1:8001: connect: connection refused`). */
export function dialError(host: string, port: number, err: NodeJS.ErrnoException): string {
  const v6 = host.includes(':')
  const address = v6 ? `[${host}]:${port}` : `${host}:${port}`
  const why: Record<string, string> = {
    ECONNREFUSED: 'connect: connection refused',
    EHOSTUNREACH: 'connect: no route to host',
    ENETUNREACH: 'connect: network is unreachable',
    ETIMEDOUT: 'connect: connection timed out',
    EADDRNOTAVAIL: 'connect: cannot assign requested address',
  }
  return `dial tcp${v6 ? '6' : '4'} ${address}: ${why[err.code ?? ''] ?? err.message}`
}
