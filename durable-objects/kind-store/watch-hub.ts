import type { KubeObject } from '../../src/apimachinery/types'
import { compileFilter, type FilterSpec, type ObjectPredicate } from '../../src/apimachinery/object-filter'
import type { Change } from './log'
import { withApiVersion } from '../../src/apis/crd/version-view'

/** What a watcher asked for; kept as the socket's attachment so it survives hibernation. */
export interface WatchSpec extends FilterSpec {
  resource: string
  kind: string
  apiVersion: string
  bookmarks: boolean
  /** objects are sent in `apiVersion` whatever version stored them (a multi-version custom resource) */
  convert?: boolean
}

/** An object's text as this watcher is sent it. */
export function shownTo(spec: WatchSpec, text: string): string {
  return spec.convert ? withApiVersion(text, spec.apiVersion) : text
}

interface Watcher {
  spec: WatchSpec
  matches: ObjectPredicate | undefined
}

/** A watch event line: the stored JSON is spliced in, never re-serialised. */
export function eventLine(type: string, objectText: string): string {
  return `{"type":"${type}","object":${objectText}}`
}

/**
 * Decides what one watcher sees of a change, as the apiserver's watch filter does: an object that
 * starts matching arrives as ADDED, one that stops matching leaves as DELETED.
 */
export function eventFor(spec: WatchSpec, matches: ObjectPredicate | undefined, change: Pick<Change, 'type' | 'object' | 'previous'>): string | undefined {
  const inNamespace = (o: KubeObject | undefined) => !!o && (spec.namespace === undefined || o.metadata.namespace === spec.namespace)
  const fits = (o: KubeObject | undefined) => inNamespace(o) && (!matches || matches(o!))
  const now = fits(change.object)
  if (change.type === 'ADDED') return now ? 'ADDED' : undefined
  if (change.type === 'DELETED') return now ? 'DELETED' : undefined
  const before = change.previous ? fits(change.previous) : now
  if (now && before) return 'MODIFIED'
  if (now) return 'ADDED'
  if (before) return 'DELETED'
  return undefined
}

/** The store's watchers: hibernatable WebSockets, each with its compiled filter. */
export class WatchHub {
  private readonly watchers = new Map<WebSocket, Watcher>()

  constructor(private readonly ctx: DurableObjectState) {}

  accept(ws: WebSocket, spec: WatchSpec): void {
    this.ctx.acceptWebSocket(ws)
    ws.serializeAttachment(spec)
    this.watchers.set(ws, { spec, matches: compileFilter(spec.resource, spec) })
  }

  watcher(ws: WebSocket): Watcher | undefined {
    let w = this.watchers.get(ws)
    if (!w) {
      const spec = ws.deserializeAttachment() as WatchSpec | null
      if (!spec) return undefined
      w = { spec, matches: compileFilter(spec.resource, spec) }
      this.watchers.set(ws, w)
    }
    return w
  }

  forget(ws: WebSocket): void {
    this.watchers.delete(ws)
  }

  count(): number {
    return this.ctx.getWebSockets().length
  }

  /** Sends a committed change to every watcher it concerns; a socket that fails is closed. */
  broadcast(change: Change): void {
    for (const ws of this.ctx.getWebSockets()) {
      const w = this.watcher(ws)
      if (!w) continue
      const type = eventFor(w.spec, w.matches, change)
      if (type) this.send(ws, eventLine(type, shownTo(w.spec, change.text)))
    }
  }

  bookmark(kind: string, apiVersion: string, rv: number): void {
    const line = eventLine('BOOKMARK', JSON.stringify({ kind, apiVersion, metadata: { resourceVersion: String(rv) } }))
    for (const ws of this.ctx.getWebSockets()) if (this.watcher(ws)?.spec.bookmarks) this.send(ws, line)
  }

  send(ws: WebSocket, text: string): void {
    try {
      ws.send(text)
    } catch {
      this.forget(ws)
      try {
        ws.close(1011, 'send failed')
      } catch {
        /* already closed */
      }
    }
  }
}
