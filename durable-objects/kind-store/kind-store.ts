import { DurableObject } from 'cloudflare:workers'
import type { KubeObject } from '../../src/apimachinery/types'
import { expired, notFound, type StoreResult } from '../../src/apimachinery/status'
import { expiryBatchRows } from '../../src/config'
import { settingsOf } from '../../src/settings/settings'
import type { Variables } from '../../src/settings/variables'
import type { ChangeBatch, KindStoreRpc, NamespaceContent } from '../../src/store-client/bindings'
import { ensureSchema } from './schema'
import { readMeta, writeMeta } from './meta'
import { expiryIndex } from './indexes'
import { ensureNodeNameColumn } from './node-name-column'
import { Housekeeping } from './housekeeping'
import { Log } from './log'
import { Writer } from './writes'
import { type WriteResult } from '../../src/apis/store-options'
import { changesSince, listObjects, namespaceContent } from './reads'
import { deletePage, eachWithin } from './batch-writes'
import { WatchHub, selectorError, watchSpecOf } from './watch-hub'
import { replay } from './replay'
import { Notifier, type ChangeRoute } from './notifier'
import { NotifyOutbox } from './notify-outbox'
import { NodeRefs } from './node-refs'
import { StoreDeadlines } from './deadlines'
import { PatchStreams } from './patch-streams'
import { patchGrantHeader, type PatchGrant } from '../../src/apis/patch-stream'
import { storeName, type ResourceDef } from '../../src/apis/registry'
import type {
  DeleteOptions,
  ListOptions,
  ListResult,
  PatchType,
  Target,
  WriteOptions,
} from '../../src/apis/store-options'
import type { StoreKinds } from '../../src/apis/store-strategy'
import { namespacedKey } from '../../src/apimachinery/object-key'
import type { Binding, ItemResult } from '../../src/apis/store-options'
import type { PatchSubresource, WriteSubresource } from '../../src/apis/write-subresource'
import { meteredState, meterEntryPoints, meterOf, whileBusy } from '../../src/limits/metered-object'
import type { ObjectUsage } from '../../src/limits/object-usage'

export type { Binding, ItemResult }

/**
 * The consistent store of one API resource (all namespaces): current objects, the change log with
 * strictly increasing resourceVersions, and the watchers fed from it.
 */
export class KindStore extends DurableObject<Variables> implements KindStoreRpc {
  private readonly log: Log
  private readonly hub: WatchHub
  private readonly writer: Writer
  private readonly housekeeping: Housekeeping
  private readonly notifier: Notifier
  private readonly nodeRefs: NodeRefs
  private readonly deadlines: StoreDeadlines
  private readonly streams: PatchStreams
  /** this store's `group/plural`, learnt from the requests it serves */
  private resource = ''
  /** this store's objects are removed a while after their last write (kept in meta: alarms run before any request) */
  private expiring: boolean
  /** this store keeps the index of what the objects bound to each node reference */
  private nodeReferences = false

  /**
   * `route` says which controllers hear of this store's changes, `kinds` what each kind does on a
   * write (the Worker entry builds both).
   */
  constructor(
    ctx: DurableObjectState,
    env: Variables,
    route: ChangeRoute,
    private readonly kinds: StoreKinds,
  ) {
    super(ctx, env)
    // the state whose storage strict-limits mode counts
    ctx = this.ctx = meteredState(this.ctx, settingsOf(env).strictLimits)
    ctx.storage.transactionSync(() => {
      ensureSchema(ctx.storage.sql)
      ensureNodeNameColumn(ctx.storage.sql)
    })
    this.log = new Log(ctx.storage.sql)
    this.expiring = readMeta(ctx.storage.sql, 'expiring') === 1
    this.hub = new WatchHub(ctx)
    this.housekeeping = new Housekeeping(
      ctx,
      this.log,
      this.hub,
      () => settingsOf(env),
      () => this.expiring,
      (nowMs) => this.expireEvents(nowMs),
      () => this.deadlines.booked,
    )
    // A notification in flight keeps the store from hibernating: it is billed as active meanwhile.
    this.notifier = new Notifier(
      {
        watchersOf: route.watchersOf.bind(route),
        poke: (name) => whileBusy(ctx, route.poke(name)),
        deadlineWatchersOf: route.deadlineWatchersOf.bind(route),
        pokeDue: (name, store, objects) => whileBusy(ctx, route.pokeDue(name, store, objects)),
      },
      settingsOf(env).controllerNotifications,
      new NotifyOutbox(ctx.storage.sql),
      { alarmBy: (at) => this.housekeeping.wake(at) },
    )
    this.notifier.resume()
    this.nodeRefs = new NodeRefs(ctx.storage.sql)
    this.deadlines = new StoreDeadlines(ctx.storage, kinds, this.log)
    this.writer = new Writer(
      this.log,
      (fn) => ctx.storage.transactionSync(fn),
      (change) => {
        this.hub.broadcast(change)
        this.notifier.notify(this.resource, change)
        this.deadlines.record(change)
        this.housekeeping.soon(change.rv)
      },
      kinds,
      (change) => {
        if (this.nodeReferences)
          this.nodeRefs.record(change.key, change.type === 'DELETED' ? undefined : change.object)
      },
    )
    this.streams = new PatchStreams(ctx, (grant, patch) => {
      this.learn(grant.target.def)
      return this.writer.patch(grant.target, 'merge', patch, undefined, grant.opts)
    })
  }

  /**
   * The Node authorizer's question, asked of the pods store: whether a pod bound to `node`
   * references `resource` (secrets, configmaps, persistentvolumeclaims) `namespace/name`.
   */
  nodeRefers(node: string, resource: string, namespace: string, name: string): boolean {
    return this.ctx.storage.transactionSync(() =>
      this.nodeRefs.refers(node, resource, namespace, name),
    )
  }

  get(t: Target): StoreResult<string> {
    const row = this.log.get(namespacedKey(t.def.namespaced ? t.namespace : undefined, t.name))
    if (!row) return { ok: false, status: notFound(t.def.group, t.def.plural, t.name) }
    return { ok: true, value: row.value }
  }

  list(resource: string, opts: ListOptions): StoreResult<ListResult> {
    return listObjects(this.log, resource, opts)
  }

  /** What the store learns of its kind from a write addressed to it. */
  private learn(def: ResourceDef): void {
    this.resource = storeName(def)
    const kind = this.kinds.of(def)
    this.nodeReferences = kind.nodeReferences
    this.log.compactsUpdatesInPlace = kind.compactsUpdatesInPlace
    this.deadlines.learn(this.resource, kind)
    if (this.expiring || !kind.expires) return
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec(expiryIndex)
      writeMeta(this.ctx.storage.sql, 'expiring', 1)
    })
    this.expiring = true
  }

  create(t: Target, body: KubeObject, opts: WriteOptions): StoreResult<WriteResult> {
    this.learn(t.def)
    return this.writer.create(t, body, opts)
  }

  update(
    t: Target,
    body: KubeObject,
    subresource: WriteSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    this.learn(t.def)
    return this.writer.update(t, body, subresource, opts)
  }

  patch(
    t: Target,
    type: PatchType,
    patch: unknown,
    subresource: PatchSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    this.learn(t.def)
    return this.writer.patch(t, type, patch, subresource, opts)
  }

  delete(t: Target, opts: DeleteOptions): StoreResult<WriteResult> {
    this.learn(t.def)
    return this.writer.delete(t, opts)
  }

  bind(
    t: Target,
    nodeName: string,
    uid: string | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    this.learn(t.def)
    return this.writer.bind(t, nodeName, uid, opts)
  }

  /**
   * Many bindings in one call, each its own write with its own answer, in order. The answers stop
   * once they hold `storeReplyBytes`: the bindings after that were not attempted and are sent again.
   */
  bindMany(def: ResourceDef, bindings: Binding[]): ItemResult[] {
    this.learn(def)
    return eachWithin(bindings, (b) =>
      this.writer.bind({ def, namespace: b.namespace, name: b.name }, b.nodeName, b.uid, {}),
    )
  }

  /** Many creates in one call (a controller's events), answered as bindMany answers. */
  createMany(def: ResourceDef, objects: KubeObject[]): ItemResult[] {
    this.learn(def)
    return eachWithin(objects, (o) =>
      this.writer.create(
        { def, namespace: o.metadata.namespace, name: o.metadata.name ?? '' },
        o,
        {},
      ),
    )
  }

  /**
   * Changes after `rv`, oldest first, at most `limit` and about `storeReplyBytes` (always at least
   * one): how controller caches stay current without holding a watch open. 410 Expired once the
   * log was compacted past `rv`.
   */
  changesSince(rv: number, limit: number): StoreResult<ChangeBatch> {
    return changesSince(this.log, rv, limit)
  }

  /**
   * How many objects a namespace still holds here and the finalizers among them: what the
   * namespace controller reports while a terminating namespace waits for its content.
   */
  namespaceContent(namespace: string): NamespaceContent {
    return namespaceContent(this.log, namespace)
  }

  /**
   * Deletes the objects of one LIST page the options select, each as a single delete would. The
   * answer carries the page's continue token: the caller deletes the next page with it, so every
   * page comes from the snapshot of the first and no reply outgrows `storeReplyBytes`.
   */
  deleteCollection(
    t: Omit<Target, 'name'>,
    list: ListOptions,
    opts: DeleteOptions,
  ): StoreResult<ListResult> {
    this.learn(t.def)
    return deletePage(this.log, this.writer, t, list, opts)
  }

  /** The resourceVersion of the last change: a cheap check that cached copies are current. */
  revision(): number {
    return this.log.currentRv
  }

  /**
   * Removes one batch of Events last written more than the event TTL before `nowMs`, as watch
   * DELETED events. True when the batch was full and more may be waiting.
   */
  expireEvents(nowMs = Date.now()): boolean {
    if (!this.expiring) return false
    return (
      this.writer.expire(nowMs - settingsOf(this.env).eventTtlMs, expiryBatchRows, nowMs) ===
      expiryBatchRows
    )
  }

  /** Store state for tests and benchmarks. */
  info(): { currentRv: number; compactedRv: number; events: number; watchers: number } {
    return {
      currentRv: this.log.currentRv,
      compactedRv: this.log.compactedRv,
      events: this.log.eventCount(),
      watchers: this.hub.count(),
    }
  }

  /** What this store is billed for, in strict-limits mode (null otherwise); this read is not counted. */
  readUsage(): ObjectUsage | null {
    const usage = meterOf(this.ctx)?.read()
    return usage
      ? {
          ...usage,
          log: {
            changes: this.log.currentRv,
            events: this.log.eventCount(),
            compacted: this.log.compactedRows(),
          },
        }
      : null
  }

  /**
   * Closes the patch streams writing objects named `name` (all of them when undefined): their grant
   * no longer holds (a node credential revoked, admission that must see the writes configured).
   */
  closePatchStreams(code: number, reason: string, name?: string): number {
    return this.streams.close(code, reason, name)
  }

  /**
   * Over WebSocket: a watch (`?resource=&kind=&apiVersion=&namespace=&labelSelector=&fieldSelector=&resourceVersion=&allowWatchBookmarks=`),
   * or at `/patch-stream` a patch stream within the grant the API server attached.
   */
  override async fetch(req: Request): Promise<Response> {
    if (req.headers.get('Upgrade')?.toLowerCase() !== 'websocket')
      return new Response('expected a WebSocket upgrade', { status: 426 })
    const url = new URL(req.url)
    if (url.pathname === '/patch-stream') {
      const grant = req.headers.get(patchGrantHeader)
      if (!grant) return new Response('a patch stream needs its grant', { status: 400 })
      return this.streams.accept(JSON.parse(grant) as PatchGrant)
    }
    const q = url.searchParams
    const spec = watchSpecOf(q)
    // A selector that cannot be compiled is refused before any socket exists, as kube-apiserver does.
    const refused = selectorError(spec)
    if (refused) return Response.json(refused, { status: refused.code })
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    const from = q.get('resourceVersion') ?? ''
    const fromRv = from === '' || from === '0' ? undefined : Number(from)
    if (fromRv !== undefined && (!Number.isInteger(fromRv) || fromRv < this.log.compactedRv)) {
      this.ctx.acceptWebSocket(server, ['expired'])
      const status = expired(`too old resource version: ${from} (${this.log.compactedRv})`)
      server.send(JSON.stringify({ type: 'ERROR', object: status }))
      server.close(1000, 'expired')
      return new Response(null, { status: 101, webSocket: client })
    }
    this.hub.accept(server, spec)
    const watcher = this.hub.watcher(server)!
    for (const frame of replay(this.log, watcher.spec, watcher.matches, fromRv))
      this.hub.send(server, frame)
    this.housekeeping.soon(undefined)
    return new Response(null, { status: 101, webSocket: client })
  }

  /** A patch stream's message is written and answered; watchers send nothing that is read. */
  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const grant = this.streams.grantOf(ws)
    if (grant) this.streams.message(ws, grant, data)
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.hub.forget(ws)
    try {
      ws.close(code === 1005 ? 1000 : code, 'closed')
    } catch {
      /* already closed */
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.hub.forget(ws)
  }

  /** Deadlines announced (`deadlines.ts`), then Event expiry, compaction and bookmarks (`housekeeping.ts`). */
  override async alarm(): Promise<void> {
    await this.deadlines.announce(Date.now(), (store, due) => this.notifier.notifyDue(store, due))
    this.deadlines.nextAlarm()
    await this.housekeeping.run()
  }
}

meterEntryPoints(
  KindStore,
  [
    'nodeRefers',
    'get',
    'list',
    'create',
    'update',
    'patch',
    'delete',
    'bind',
    'bindMany',
    'createMany',
    'changesSince',
    'closePatchStreams',
    'namespaceContent',
    'deleteCollection',
    'revision',
    'expireEvents',
    'info',
    'fetch',
    'webSocketMessage',
    'webSocketClose',
    'webSocketError',
    'alarm',
  ],
  ['readUsage'],
)
