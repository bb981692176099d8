/**
 * List, then watch over a WebSocket from the list's resourceVersion; after a disconnect, resume
 * from the last resourceVersion seen (events and bookmarks); after `410 Expired`, list again.
 */
import type WebSocket from 'ws'
import type { KubeObject } from '../apimachinery/types'
import type { ApiClient, KubeList } from './api-client'
import { RetryBackoff, WATCH_RECONNECT, type RetryBackoffConfig } from './runtime/backoff'
import type { Logger } from './log'

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED'

export interface WatchHandlers {
  /** a fresh list: these are all the objects there are */
  replace(items: KubeObject[], resourceVersion: string): void
  event(type: WatchEventType, object: KubeObject): void
}

export interface ListWatchOptions {
  /** path of the collection, e.g. `/api/v1/pods` */
  path: string
  /** list and watch parameters, e.g. `{ fieldSelector: 'spec.nodeName=n1' }` */
  params: Record<string, string>
  backoff?: RetryBackoffConfig
  /** a ping goes out this often; a connection that has not answered the previous one is dropped */
  pingIntervalMs?: number
  /** a connection that lived this long counts as healthy: the reconnect backoff starts over */
  healthyAfterMs?: number
}

type WatchEnd = { kind: 'expired' } | { kind: 'closed'; reason: string; healthy: boolean }

/** One raw watch message (one or more newline-separated events) as typed events. */
export function parseWatchMessage(
  text: string,
): { type: string; object: KubeObject & { code?: number; message?: string; reason?: string } }[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(
      (line) =>
        JSON.parse(line) as {
          type: string
          object: KubeObject & { code?: number; message?: string; reason?: string }
        },
    )
}

export class ListWatch {
  private stopped = true
  private socket: WebSocket | undefined
  private sleepTimer: NodeJS.Timeout | undefined
  private wakeSleep: (() => void) | undefined
  private rv = ''
  private needList = true
  private readonly backoff: RetryBackoff
  private synced!: Promise<void>
  private markSynced!: () => void
  /** true while a watch connection is open */
  connected = false

  constructor(
    private readonly api: ApiClient,
    private readonly opts: ListWatchOptions,
    private readonly handlers: WatchHandlers,
    private readonly log: Logger,
  ) {
    this.backoff = new RetryBackoff(opts.backoff ?? WATCH_RECONNECT)
    this.synced = new Promise((resolve) => (this.markSynced = resolve))
  }

  get resourceVersion(): string {
    return this.rv
  }

  /** Resolves once the first list has been delivered. */
  whenSynced(): Promise<void> {
    return this.synced
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    void this.run()
  }

  stop(): void {
    this.stopped = true
    if (this.sleepTimer) clearTimeout(this.sleepTimer)
    this.wakeSleep?.()
    this.socket?.terminate()
  }

  private query(extra: Record<string, string>): string {
    return new URLSearchParams({ ...this.opts.params, ...extra }).toString()
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.needList) {
        try {
          const list = await this.api.get<KubeList>(`${this.opts.path}?${this.query({})}`)
          if (this.stopped) return
          this.rv = list.metadata.resourceVersion ?? ''
          this.needList = false
          this.handlers.replace(list.items ?? [], this.rv)
          this.markSynced()
          this.log.debug(`listed ${list.items?.length ?? 0} objects at resourceVersion ${this.rv}`)
        } catch (err) {
          const delay = this.backoff.next()
          this.log.warn(
            `list ${this.opts.path} failed (retrying in ${delay} ms): ${(err as Error).message}`,
          )
          await this.sleep(delay)
          continue
        }
      }
      const end = await this.watchOnce()
      if (this.stopped) return
      if (end.kind === 'expired') {
        this.log.info(
          `watch ${this.opts.path} from resourceVersion ${this.rv} expired (410); listing again`,
        )
        this.needList = true
        continue
      }
      if (end.healthy) this.backoff.reset()
      const delay = this.backoff.next()
      this.log.warn(
        `watch ${this.opts.path} disconnected (${end.reason}); resuming from resourceVersion ${this.rv} in ${delay} ms`,
      )
      await this.sleep(delay)
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeSleep = resolve
      this.sleepTimer = setTimeout(resolve, ms)
    })
  }

  private watchOnce(): Promise<WatchEnd> {
    const pingEvery = this.opts.pingIntervalMs ?? 30_000
    const healthyAfter = this.opts.healthyAfterMs ?? 5_000
    return new Promise<WatchEnd>((resolve) => {
      const ws = this.api.watchSocket(
        `${this.opts.path}?${this.query({ watch: 'true', allowWatchBookmarks: 'true', resourceVersion: this.rv })}`,
      )
      this.socket = ws
      let openedAt: number | undefined
      let settled = false
      let awaitingPong = false
      let pinger: NodeJS.Timeout | undefined
      const finish = (end: WatchEnd) => {
        if (settled) return
        settled = true
        this.connected = false
        if (pinger) clearInterval(pinger)
        ws.removeAllListeners()
        ws.on('error', () => {})
        try {
          ws.terminate()
        } catch {
          // already closed
        }
        resolve(end)
      }
      const closed = (reason: string) =>
        finish({
          kind: 'closed',
          reason,
          healthy: openedAt !== undefined && Date.now() - openedAt >= healthyAfter,
        })

      ws.on('open', () => {
        openedAt = Date.now()
        this.connected = true
        if (this.backoff.attempts > 0)
          this.log.info(`watch ${this.opts.path} resumed from resourceVersion ${this.rv}`)
        else this.log.debug(`watching ${this.opts.path} from resourceVersion ${this.rv || '(now)'}`)
        pinger = setInterval(() => {
          if (awaitingPong) return closed(`no answer to a ping within ${pingEvery} ms`)
          awaitingPong = true
          ws.ping()
        }, pingEvery)
      })
      ws.on('pong', () => (awaitingPong = false))
      ws.on('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const code = res.statusCode ?? 0
          const text = Buffer.concat(chunks).toString('utf8')
          if (code === 410) return finish({ kind: 'expired' })
          let message = text.slice(0, 300)
          try {
            message = (JSON.parse(text) as { message?: string }).message ?? message
          } catch {
            // keep the raw text
          }
          closed(`the server answered ${code}: ${message}`)
        })
        res.on('error', () => closed(`the server answered ${res.statusCode}`))
      })
      ws.on('message', (data) => {
        if (settled) return
        let events: ReturnType<typeof parseWatchMessage>
        try {
          events = parseWatchMessage(String(data))
        } catch (err) {
          return closed(`undecodable watch message: ${(err as Error).message}`)
        }
        for (const e of events) {
          if (e.type === 'ERROR') {
            const code = e.object.code
            if (code === 410) return finish({ kind: 'expired' })
            return closed(
              `watch error ${code ?? ''}: ${e.object.message ?? JSON.stringify(e.object)}`,
            )
          }
          const rv = e.object.metadata?.resourceVersion
          if (rv) this.rv = rv
          if (e.type === 'BOOKMARK') continue
          if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') {
            try {
              this.handlers.event(e.type, e.object)
            } catch (err) {
              this.log.error(`handling a ${e.type} event failed: ${(err as Error).stack ?? err}`)
            }
          }
        }
      })
      ws.on('close', (code, reason) =>
        closed(`closed with ${code}${reason.length ? ` ${reason.toString()}` : ''}`),
      )
      ws.on('error', (err) => closed(err.message))
    })
  }
}
