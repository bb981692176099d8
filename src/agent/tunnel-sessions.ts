/**
 * The streams the API server opens through a node's tunnel: a container's logs and an exec or
 * attach session, each writing its frames back on the tunnel's socket.
 */
import WebSocket from 'ws'
import type { LogOptions } from '../agent-protocol/log-options'
import { Channel, encodeFrames, type DataFrame } from '../agent-protocol/data-frames'
import type { ExecOpen, LogsOpen } from '../agent-protocol/tunnel-messages'
import { ResizeChannel } from './resize-channel'
import type { ContainerRuntime, ContainerState, ExecStreams } from './runtime/types'
import type { StreamOutput } from './stream-output'

/** One stream open on the tunnel. */
export interface Session {
  cancel(): void
  input(frame: DataFrame): void
}

/** Log reading pauses while this much is queued on the socket, so a fast log cannot fill memory. */
export const maxBufferedBytes = 8 * 1024 * 1024

/** What a stream writes back through the tunnel. */
type Output = StreamOutput

export function output(socket: WebSocket, id: number, sessions: Map<number, Session>): Output {
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

export function serveLogs(runtime: ContainerRuntime, msg: LogsOpen, out: Output): Session {
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

export function serveExec(runtime: ContainerRuntime, msg: ExecOpen, out: Output): Session {
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

export function toBytes(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data))
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
}
