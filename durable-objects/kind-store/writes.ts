import type { KubeObject, Status } from '../../src/apimachinery/types'
import {
  alreadyExists,
  conflict,
  failure,
  invalid,
  notFound,
  staleObjectMessage,
  type StoreResult,
} from '../../src/apimachinery/status'
import type {
  DeleteOptions,
  PatchType,
  Target,
  WriteOptions,
  WriteResult,
} from '../../src/apis/store-options'
import type { StoreKinds, StoreStrategy } from '../../src/apis/store-strategy'
import { generateNameAttempts } from '../../src/config'
import { nameSuffix } from '../../src/apimachinery/generate-name'
import type { Change, Log, StoredRow } from './log'
import { deletionOf, failedPrecondition } from './deletion'
import { sizeCheck, unchanged } from './stored-bytes'
import { namespacedKey } from '../../src/apimachinery/object-key'
import type { PatchSubresource, WriteSubresource } from '../../src/apis/write-subresource'

export type { WriteResult }

/** Admission webhooks were shown another version of the object than the one stored now. */
function shownOtherVersion(opts: WriteOptions, row: StoredRow): boolean {
  const shown = opts.admission?.resourceVersion
  return shown !== undefined && shown !== String(row.rv)
}

/** The 404 for a subresource the kind does not have. */
const noSuchSubresource = (): Status =>
  failure(404, 'NotFound', 'the server could not find the requested resource', {})

/** What the writer needs of a log: the SQLite one in the store, an in-memory one in unit tests. */
export type WriterLog = Pick<Log, 'get' | 'append' | 'scanCurrent' | 'writtenBefore'>

/** Applies writes to the log; every method is synchronous so one write never interleaves with another. */
export class Writer {
  constructor(
    private readonly log: WriterLog,
    private readonly transact: <T>(fn: () => T) => T,
    private readonly publish: (change: Change) => void,
    /** what each kind does on a write (its strategy, its schema): src/apis/store-strategy.ts */
    private readonly kinds: StoreKinds,
    /** keeps the store's indexes, inside the transaction of each change */
    private readonly index: (change: Pick<Change, 'type' | 'key' | 'object'>) => void = () => {},
    /** the clock of timestamps written (creation, deletion, conditions, managedFields) */
    private readonly clock: () => number = () => Date.now(),
  ) {}

  create(t: Target, body: KubeObject, opts: WriteOptions): StoreResult<WriteResult> {
    const { def } = t
    const kind = this.kinds.of(def)
    const nowMs = this.clock()
    const prepared = kind.prepareForCreate(body, nowMs, opts.requester)
    const namespace = def.namespaced ? t.namespace : undefined
    if (namespace) prepared.metadata.namespace = namespace
    if (!prepared.metadata.name && prepared.metadata.generateName) {
      // A generated name that collides is drawn again, as kube-apiserver retries generateName.
      for (let attempt = 0; attempt < generateNameAttempts; attempt++) {
        prepared.metadata.name = `${prepared.metadata.generateName}${nameSuffix()}`
        if (!this.log.get(namespacedKey(namespace, prepared.metadata.name))) break
      }
    }
    const admitted = kind.admit(prepared, body, opts)
    if (!admitted.ok) return admitted
    const obj = kind.recordFields(undefined, admitted.value, opts.fieldManager, undefined, nowMs)
    const nodeRefused = opts.nodeWriter && kind.nodeWriteRefusal(opts.nodeWriter, undefined, obj)
    if (nodeRefused) return { ok: false, status: nodeRefused }
    const name = obj.metadata.name!
    const refused = kind.validateCreate(obj)
    if (refused.length) return { ok: false, status: invalid(def.group, def.kind, name, refused) }
    const key = namespacedKey(namespace, name)
    if (this.log.get(key)) return { ok: false, status: alreadyExists(def.group, def.plural, name) }
    const unallocated = kind.allocate(obj, undefined, () => this.log.scanCurrent(undefined, ''))
    if (unallocated) return { ok: false, status: unallocated }
    const tooBig = sizeCheck(obj)
    if (tooBig) return { ok: false, status: tooBig }
    if (opts.dryRun)
      return {
        ok: true,
        value: { object: JSON.stringify(obj), created: true },
        warnings: admitted.warnings,
      }
    const text = this.commit('ADDED', key, namespace ?? '', obj, undefined, nowMs)
    return { ok: true, value: { object: text, created: true }, warnings: admitted.warnings }
  }

  update(
    t: Target,
    body: KubeObject,
    subresource: WriteSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    const { def } = t
    const kind = this.kinds.of(def)
    const sub = subresource === undefined ? undefined : kind.subresource(subresource)
    if (subresource !== undefined && !sub) return { ok: false, status: noSuchSubresource() }
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    const wantRv = body.metadata?.resourceVersion
    if (shownOtherVersion(opts, row))
      return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (wantRv && wantRv !== String(row.rv))
      return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    // A subresource whose body makes a write of the object itself (a Scale's replicas, a namespace's finalizers).
    if (sub?.toObject) {
      const made = sub.toObject(old, body)
      if (!made.ok) return made
      return this.replace(kind, t, key, row, old, made.value, undefined, opts, renderAs(sub.view))
    }
    return this.replace(kind, t, key, row, old, body, subresource, opts)
  }

  patch(
    t: Target,
    type: PatchType,
    patch: unknown,
    subresource: PatchSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    const { def } = t
    const kind = this.kinds.of(def)
    const sub = subresource === undefined ? undefined : kind.subresource(subresource)
    if (subresource !== undefined && !sub) return { ok: false, status: noSuchSubresource() }
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    const apply = type === 'apply' ? kind.applyOptions(opts, subresource, this.clock()) : undefined
    if (apply && !apply.manager)
      return {
        ok: false,
        status: invalid('meta.k8s.io', 'PatchOptions', '', [
          {
            field: 'fieldManager',
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
          },
        ]),
      }
    // An apply admitted as a change of a stored version that is gone since is not made as a create.
    if (!row && apply && !subresource && !opts.admission?.resourceVersion)
      return this.createOnApply(kind, t, patch, apply, opts)
    if (!row && apply && !subresource)
      return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    if (shownOtherVersion(opts, row))
      return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    const old = JSON.parse(row.value) as KubeObject
    // A subresource of another kind (a Scale) is patched as that kind, then made a write of the object.
    const patched = kind.applyPatch(
      type,
      sub?.view ? sub.view(old) : old,
      patch,
      subresource,
      apply,
    )
    if (!patched.ok) return patched
    const wantRv = patched.value.metadata?.resourceVersion
    if (wantRv && wantRv !== String(row.rv))
      return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (sub?.toObject) {
      const made = sub.toObject(old, patched.value)
      if (!made.ok) return made
      return this.replace(kind, t, key, row, old, made.value, undefined, opts, renderAs(sub.view))
    }
    // An apply has already recorded its ownership; the write must not record it again as an update.
    return this.replace(
      kind,
      t,
      key,
      row,
      old,
      patched.value,
      subresource,
      apply ? { ...opts, fieldManager: undefined } : opts,
    )
  }

  /** An apply to a missing object creates it from the configuration (validated and admitted as a create). */
  private createOnApply(
    kind: StoreStrategy,
    t: Target,
    patch: unknown,
    apply: Parameters<StoreStrategy['createOnApply']>[2],
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    const made = kind.createOnApply(t.name, patch, apply)
    if (!made.ok) return made
    return this.create(t, made.value, { ...opts, fieldManager: undefined })
  }

  private replace(
    kind: StoreStrategy,
    t: Target,
    key: string,
    row: StoredRow,
    old: KubeObject,
    incoming: KubeObject,
    subresource: string | undefined,
    opts: WriteOptions,
    render: (o: KubeObject) => string = (o) => JSON.stringify(o),
  ): StoreResult<WriteResult> {
    const { def } = t
    const wantUid = incoming.metadata?.uid
    if (wantUid && wantUid !== old.metadata.uid) {
      return {
        ok: false,
        status: conflict(
          def.group,
          def.plural,
          t.name,
          `Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${old.metadata.uid}`,
        ),
      }
    }
    if (incoming.metadata?.name !== undefined && incoming.metadata.name !== t.name) {
      return {
        ok: false,
        status: failure(
          400,
          'BadRequest',
          `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${t.name})`,
        ),
      }
    }
    const next = kind.prepareForUpdate(
      old,
      { ...incoming, metadata: { ...(incoming.metadata ?? {}) } },
      subresource,
    )
    const admitted = kind.admit(next, incoming, opts, { old, subresource })
    if (!admitted.ok) return admitted
    const obj = kind.recordFields(old, admitted.value, opts.fieldManager, subresource, this.clock())
    const causes = kind.validateUpdate(old, obj, subresource)
    if (causes.length) return { ok: false, status: invalid(def.group, def.kind, t.name, causes) }
    const refused = opts.nodeWriter && kind.nodeWriteRefusal(opts.nodeWriter, old, obj)
    if (refused) return { ok: false, status: refused }
    const unallocated = kind.allocate(obj, old, () => this.log.scanCurrent(undefined, ''))
    if (unallocated) return { ok: false, status: unallocated }
    obj.metadata.resourceVersion = String(row.rv)
    if (unchanged(old, obj))
      return { ok: true, value: { object: render(old) }, warnings: admitted.warnings }
    const tooBig = sizeCheck(obj)
    if (tooBig) return { ok: false, status: tooBig }
    const finishing =
      !!obj.metadata.deletionTimestamp &&
      !kind.pendingFinalizers(obj).length &&
      !obj.metadata.deletionGracePeriodSeconds
    if (opts.dryRun)
      return { ok: true, value: { object: render(obj) }, warnings: admitted.warnings }
    const text = this.commit(
      finishing ? 'DELETED' : 'MODIFIED',
      key,
      old.metadata.namespace ?? '',
      obj,
      row,
      this.clock(),
      old,
    )
    return {
      ok: true,
      value: { object: render(JSON.parse(text) as KubeObject), deleted: finishing || undefined },
      warnings: admitted.warnings,
    }
  }

  /** POST <resource>/binding (pods): the object bound to a node, as its kind binds it. */
  bind(
    t: Target,
    nodeName: string,
    uid: string | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult> {
    const { def } = t
    const key = namespacedKey(t.namespace, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    const refused = failedPrecondition(def, t.name, { uid }, old, row.rv)
    if (refused) return { ok: false, status: refused }
    const bound = this.kinds.of(def).bind(old, nodeName, this.clock())
    if (!bound.ok) return bound
    if (opts.dryRun) return { ok: true, value: { object: JSON.stringify(bound.value) } }
    const text = this.commit(
      'MODIFIED',
      key,
      old.metadata.namespace ?? '',
      bound.value,
      row,
      this.clock(),
      old,
    )
    return { ok: true, value: { object: text } }
  }

  delete(t: Target, opts: DeleteOptions): StoreResult<WriteResult> {
    const { def } = t
    const kind = this.kinds.of(def)
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    const refused = failedPrecondition(def, t.name, opts.preconditions ?? {}, old, row.rv)
    if (refused) return { ok: false, status: refused }
    const nowMs = this.clock()
    const next = deletionOf(kind, old, opts, nowMs)
    if (!next) {
      if (opts.dryRun) return { ok: true, value: { object: row.value, pending: false } }
      const text = this.commit('DELETED', key, old.metadata.namespace ?? '', old, row, nowMs)
      return { ok: true, value: { object: text, pending: false } }
    }
    kind.prepareForDelete(next)
    if (unchanged(old, next)) return { ok: true, value: { object: row.value, pending: true } }
    if (opts.dryRun) return { ok: true, value: { object: JSON.stringify(next), pending: true } }
    const text = this.commit('MODIFIED', key, old.metadata.namespace ?? '', next, row, nowMs, old)
    return { ok: true, value: { object: text, pending: true } }
  }

  /**
   * Removes the objects last written before `cutoffMs` (at most `limit`, in one transaction), each
   * as a DELETED change watchers see, the way an etcd lease expiry removes an Event: finalizers and
   * grace periods are not waited for. Returns how many were removed.
   */
  expire(cutoffMs: number, limit: number, nowMs: number): number {
    const rows = this.log.writtenBefore(cutoffMs, limit)
    if (!rows.length) return 0
    const changes = this.transact(() =>
      rows.map((row): Change => {
        const object = JSON.parse(row.value) as KubeObject
        const { rv, text } = this.log.append(
          'DELETED',
          row.key,
          object.metadata.namespace ?? '',
          object,
          row,
          nowMs,
        )
        this.index({ type: 'DELETED', key: row.key, object })
        return { type: 'DELETED', rv, key: row.key, object, text }
      }),
    )
    for (const change of changes) this.tell(change)
    return rows.length
  }

  private commit(
    type: Change['type'],
    key: string,
    namespace: string,
    obj: KubeObject,
    previous: StoredRow | undefined,
    nowMs: number,
    previousObject?: KubeObject,
  ): string {
    const { rv, text } = this.transact(() => {
      const appended = this.log.append(type, key, namespace, obj, previous, nowMs)
      this.index({ type, key, object: obj })
      return appended
    })
    this.tell({ type, rv, key, object: obj, text, previous: previousObject })
    return text
  }

  /** The change is committed: telling watchers may fail, answering the writer may not. */
  private tell(change: Change): void {
    try {
      this.publish(change)
    } catch (e) {
      console.error('publishing a committed change failed', e)
    }
  }
}

/** How a write through a subresource answers: as that subresource's view (a Scale), or the object. */
function renderAs(
  view: ((o: KubeObject) => KubeObject) | undefined,
): ((o: KubeObject) => string) | undefined {
  return view && ((o) => JSON.stringify(view(o)))
}
