import type { KubeObject, Status } from '../../src/apimachinery/types'
import { patchStreamTag } from './patch-streams'
import { badRequest } from '../../src/apimachinery/status'
import { SelectorError } from '../../src/apimachinery/labels'
import {
  compileFilter,
  type FilterSpec,
  type ObjectPredicate,
} from '../../src/apimachinery/object-filter'
import type { Change } from './log'
import { withApiVersion } from '../../src/apis/crd/version-view'
import { nodeNameOf, nodeScope } from './node-scope'

/** The socket tag of a watcher not pinned to one node. */
const anyTag = 'watch'
/** A platform tag holds at most 256 characters; a longer node name is watched under `anyTag`. */
const maxTagLength = 256

function nodeTag(node: string): string | undefined {
  const tag = `node:${node}`
  return tag.length <= maxTagLength ? tag : undefined
}

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
export function eventFor(
  spec: WatchSpec,
  matches: ObjectPredicate | undefined,
  change: Pick<Change, 'type' | 'object' | 'previous'>,
): string | undefined {
  const inNamespace = (o: KubeObject | undefined) =>
    !!o && (spec.namespace === undefined || o.metadata.namespace === spec.namespace)
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

/** A watch as the API server asks the store for it, in the upgrade's query. */
export function watchSpecOf(q: URLSearchParams): WatchSpec {
  return {
    resource: q.get('resource') ?? '',
    kind: q.get('kind') ?? '',
    apiVersion: q.get('apiVersion') ?? '',
    namespace: q.get('namespace') || undefined,
    labelSelector: q.get('labelSelector') || undefined,
    fieldSelector: q.get('fieldSelector') || undefined,
    bookmarks: q.get('allowWatchBookmarks') === 'true',
    convert: q.get('convert') === 'true',
  }
}

/** The 400 BadRequest a watch's selectors earn, if they do not compile. */
export function selectorError(spec: WatchSpec): Status | undefined {
  try {
    compileFilter(spec.resource, spec)
    return undefined
  } catch (e) {
    if (e instanceof SelectorError) return badRequest(e.message)
    return badRequest(`invalid selector: ${(e as Error).message}`)
  }
}

/** The store's watchers: hibernatable WebSockets, each with its compiled filter. */
export class WatchHub {
  private readonly watchers = new Map<WebSocket, Watcher>()

  constructor(private readonly ctx: DurableObjectState) {}

  /** sockets accepted untagged (before watchers were tagged by node): every broadcast then visits every socket */
  private untagged: boolean | undefined
  /** whether a watcher asked for bookmarks, known until a watcher comes or goes */
  private bookmarking: boolean | undefined

  /** Accepts a watcher, tagged with the node its selector pins it to so a pod's change reaches only its node's watchers. */
  accept(ws: WebSocket, spec: WatchSpec): void {
    const matches = compileFilter(spec.resource, spec)
    const scope = matches ? nodeScope(spec.resource, spec) : undefined
    this.ctx.acceptWebSocket(ws, [(scope && nodeTag(scope.node)) ?? anyTag])
    ws.serializeAttachment(spec)
    this.watchers.set(ws, { spec, matches })
    if (spec.bookmarks) this.bookmarking = true
  }

  /** Whether any watcher asked for bookmarks. */
  wantsBookmarks(): boolean {
    this.bookmarking ??= this.sockets().some((ws) => this.watcher(ws)?.spec.bookmarks)
    return this.bookmarking
  }

  /** The sockets a change may concern: every watcher not pinned to a node, and those of the object's node before and after. */
  private socketsFor(change: Change): WebSocket[] {
    this.untagged ??= this.ctx.getWebSockets().some((ws) => this.ctx.getTags(ws).length === 0)
    if (this.untagged) return this.ctx.getWebSockets()
    const sockets = this.ctx.getWebSockets(anyTag)
    const nodes = new Set([nodeNameOf(change.object)])
    if (change.previous) nodes.add(nodeNameOf(change.previous))
    for (const node of nodes) {
      const tag = nodeTag(node)
      if (tag) sockets.push(...this.ctx.getWebSockets(tag))
    }
    return sockets
  }

  /** A socket's watcher, recompiled after hibernation; one whose filter no longer compiles is dropped. */
  watcher(ws: WebSocket): Watcher | undefined {
    let w = this.watchers.get(ws)
    if (!w) {
      const spec = ws.deserializeAttachment() as WatchSpec | null
      if (!spec || typeof spec.resource !== 'string') return undefined
      try {
        w = { spec, matches: compileFilter(spec.resource, spec) }
      } catch {
        this.drop(ws, 'invalid selector')
        return undefined
      }
      this.watchers.set(ws, w)
    }
    return w
  }

  forget(ws: WebSocket): void {
    this.watchers.delete(ws)
    this.bookmarking = undefined
  }

  /** The watchers' sockets (a store's patch streams are not watchers). */
  sockets(): WebSocket[] {
    return this.ctx.getWebSockets().filter((ws) => !this.ctx.getTags(ws).includes(patchStreamTag))
  }

  count(): number {
    return this.sockets().length
  }

  /**
   * Sends a committed change to every watcher it concerns. A watcher whose filter throws, or whose
   * socket fails, is closed; the others still get the change.
   */
  broadcast(change: Change): void {
    for (const ws of this.socketsFor(change)) {
      const w = this.watcher(ws)
      if (!w) continue
      let line: string | undefined
      try {
        const type = eventFor(w.spec, w.matches, change)
        if (type) line = eventLine(type, shownTo(w.spec, change.text))
      } catch {
        this.drop(ws, 'watch filter failed')
        continue
      }
      if (line) this.send(ws, line)
    }
  }

  bookmark(kind: string, apiVersion: string, rv: number): void {
    const line = eventLine(
      'BOOKMARK',
      JSON.stringify({ kind, apiVersion, metadata: { resourceVersion: String(rv) } }),
    )
    for (const ws of this.sockets()) if (this.watcher(ws)?.spec.bookmarks) this.send(ws, line)
  }

  send(ws: WebSocket, text: string): void {
    try {
      ws.send(text)
    } catch {
      this.drop(ws, 'send failed')
    }
  }

  /** Closes a watcher the store can no longer serve; its client resumes from its last resourceVersion. */
  drop(ws: WebSocket, reason: string): void {
    this.forget(ws)
    try {
      ws.close(1011, reason)
    } catch {
      /* already closed */
    }
  }
}
