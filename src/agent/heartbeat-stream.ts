/**
 * The node's heartbeat stream: its Lease renewals as messages on one WebSocket
 * (`/agent/v1/nodes/<node>/heartbeat`), each written by the leases store as a merge patch of
 * `spec.renewTime` would be. Opened when a renewal finds it closed; while it is not open, or a
 * renewal on it gets no answer, the Lease is renewed with PATCH (lease.ts).
 */
import type WebSocket from 'ws'
import type { ApiClient } from './api-client'
import { ApiStatusError } from './api-client'
import type { Logger } from './log'
import { RetryBackoff, WATCH_RECONNECT } from './runtime/backoff'
import type { PatchMessage, PatchReply } from '../apis/patch-stream'

/** The stream closed or stopped answering: the renewal is made with PATCH instead. */
export class HeartbeatStreamLost extends Error {}

/** A server that refuses the stream (an older one, or admission that must see Lease updates) is asked again this much later. */
const REFUSED_RETRY_MS = 5 * 60_000

export class HeartbeatStream {
  private socket: WebSocket | undefined
  private open = false
  private stopped = false
  private retryAt = 0
  private nextId = 0
  private readonly backoff = new RetryBackoff(WATCH_RECONNECT)
  private readonly pending = new Map<
    number,
    { resolve: (rv: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
  >()

  constructor(
    private readonly api: ApiClient,
    private readonly nodeName: string,
    private readonly log: Logger,
    /** a renewal unanswered this long is made with PATCH, and the stream opened again */
    private readonly replyTimeoutMs = 5_000,
  ) {}

  private get path(): string {
    return `/agent/v1/nodes/${encodeURIComponent(this.nodeName)}/heartbeat`
  }

  /**
   * Renews over the stream: resolves to the Lease's new resourceVersion, rejects with the API's
   * Status (ApiStatusError) or with HeartbeatStreamLost. Undefined while the stream is not open
   * (opening it when due): the caller renews with PATCH.
   */
  renew(spec: { renewTime: string; leaseDurationSeconds: number }): Promise<string> | undefined {
    if (!this.open || !this.socket) {
      this.connect()
      return undefined
    }
    const socket = this.socket
    const id = ++this.nextId
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new HeartbeatStreamLost('the heartbeat stream did not answer'))
        socket.terminate()
      }, this.replyTimeoutMs)
      this.pending.set(id, { resolve, reject, timer })
      socket.send(JSON.stringify({ id, patch: { spec } } satisfies PatchMessage))
    })
  }

  stop(): void {
    this.stopped = true
    this.socket?.terminate()
  }

  private connect(): void {
    if (this.stopped || this.socket || Date.now() < this.retryAt) return
    const socket = this.api.watchSocket(this.path)
    this.socket = socket
    socket.on('open', () => {
      this.open = true
      this.backoff.reset()
      this.log.debug(`lease heartbeat stream of node ${this.nodeName} open`)
    })
    socket.on('unexpected-response', (_req, res) => {
      // 409: admission must see Lease updates; 404: a server without the stream. PATCH it is, for a while.
      const refused = res.statusCode === 409 || res.statusCode === 404
      this.retryAt = Date.now() + (refused ? REFUSED_RETRY_MS : this.backoff.next())
      this.log.debug(
        `lease heartbeat stream of node ${this.nodeName} refused (${res.statusCode}): renewing with PATCH`,
      )
      res.resume()
      socket.terminate()
    })
    socket.on('message', (data) => this.answer(String(data)))
    socket.on('error', (err) => this.log.debug(`lease heartbeat stream: ${err.message}`))
    socket.on('close', (code, reason) => {
      if (this.socket === socket) this.socket = undefined
      if (this.open) this.log.debug(`lease heartbeat stream closed (${code} ${String(reason)})`)
      // Opened again at a later renewal, after a backoff.
      this.retryAt = Math.max(this.retryAt, Date.now() + this.backoff.next())
      this.open = false
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer)
        p.reject(new HeartbeatStreamLost('the heartbeat stream closed'))
        this.pending.delete(id)
      }
    })
  }

  private answer(text: string): void {
    let reply: PatchReply
    try {
      reply = JSON.parse(text) as PatchReply
    } catch {
      return
    }
    const p = this.pending.get(reply.id)
    if (!p) return
    this.pending.delete(reply.id)
    clearTimeout(p.timer)
    if ('resourceVersion' in reply) p.resolve(reply.resourceVersion)
    else {
      const s = reply.status
      p.reject(new ApiStatusError(s.code ?? 500, s.reason ?? '', s.message ?? 'renewal failed', s))
    }
  }
}
