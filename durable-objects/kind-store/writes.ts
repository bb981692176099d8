import type { KubeObject, Status, StatusCause } from '../../src/apimachinery/types'
import { alreadyExists, conflict, failure, invalid, notFound, staleObjectMessage, type StoreResult } from '../../src/apimachinery/status'
import { gracePeriodFor, nameSuffix, prepareForCreate, prepareForUpdate, unchanged, validateCreate, validateUpdate } from '../../src/apis/strategy'
import { admit } from '../../src/apis/admission'
import { statusWriteValidation } from '../../src/apis/validate-status'
import { fromScale, toScale } from '../../src/apis/scale'
import { applyPatch } from '../../src/apis/patching'
import { checkConfig, objectToCreate, type ApplyOptions } from '../../src/apis/ssa/apply'
import type { ApplyWriteOptions, DeleteOptions, PatchType, Target, WriteOptions } from '../../src/apis/store-options'
import { recordUpdate } from '../../src/apis/ssa/track'
import { generateNameAttempts, maxStoredObjectBytes } from '../../src/config'
import { pendingFinalizers } from '../../src/apis/defaults'
import { serviceAddressesFor } from '../../src/apis/service-ips'
import { nodeWriteRefusal } from '../../src/apis/node-restriction'
import { isCsr, stampRequester } from '../../src/apis/certificates/csr-object'
import type { Change, Log, StoredRow } from './log'
import { formatTime } from '../../src/apimachinery/meta-time'
import { namespacedKey } from '../../src/apimachinery/object-key'
import type { WriteResult } from '../../src/apis/store-options'
import type { ObjectSubresource, PatchSubresource, WriteSubresource } from '../../src/apis/subresources'

export type { WriteResult }

/**
 * The object as admission webhooks patched it, admitted again (validation runs after mutation, as
 * upstream); `prepare` keeps what the write may not change (a status write leaves the spec).
 */
function admitMutated(
  def: Target['def'],
  admitted: StoreResult<KubeObject>,
  opts: WriteOptions,
  prepare: (o: KubeObject) => KubeObject = (o) => o,
  validate?: (o: KubeObject) => StatusCause[],
): StoreResult<KubeObject> {
  const patch = opts.admission?.patch
  if (!admitted.ok || !patch?.length) return admitted
  const patched = applyPatch(def, 'json', admitted.value, patch)
  if (!patched.ok) return { ok: false, status: failure(500, 'InternalError', `Internal error occurred: the admission webhooks' patch could not be applied: ${patched.status.message}`) }
  const again = admit(def, prepare(patched.value), 'Ignore', undefined, validate)
  return again.ok ? { ...again, warnings: [...(admitted.warnings ?? []), ...(again.warnings ?? [])] } : again
}

/** Admission webhooks were shown another version of the object than the one stored now. */
function shownOtherVersion(opts: WriteOptions, row: StoredRow): boolean {
  const shown = opts.admission?.resourceVersion
  return shown !== undefined && shown !== String(row.rv)
}

/** What the writer needs of a log: the SQLite one in the store, an in-memory one in unit tests. */
export type WriterLog = Pick<Log, 'get' | 'append' | 'scanCurrent' | 'writtenBefore'>

/** Applies writes to the log; every method is synchronous so one write never interleaves with another. */
export class Writer {
  constructor(
    private readonly log: WriterLog,
    private readonly transact: <T>(fn: () => T) => T,
    private readonly publish: (change: Change) => void,
    /** keeps the store's indexes, inside the transaction of each change */
    private readonly index: (change: Pick<Change, 'type' | 'key' | 'object'>) => void = () => {},
    /** SERVICE_CLUSTER_IP_RANGE: where Service cluster IPs are allocated (unset: the default range) */
    private readonly serviceClusterIpRange?: string,
    /** the clock of timestamps written (creation, deletion, conditions, managedFields) */
    private readonly clock: () => number = () => Date.now(),
  ) {}

  create(t: Target, body: KubeObject, opts: WriteOptions): StoreResult<WriteResult> {
    const { def } = t
    const nowMs = this.clock()
    const prepared = prepareForCreate(def, body, nowMs)
    if (isCsr(def)) stampRequester(prepared, opts.requester)
    const namespace = def.namespaced ? t.namespace : undefined
    if (namespace) prepared.metadata.namespace = namespace
    if (!prepared.metadata.name && prepared.metadata.generateName) {
      // A generated name that collides is drawn again, as kube-apiserver retries generateName.
      for (let attempt = 0; attempt < generateNameAttempts; attempt++) {
        prepared.metadata.name = `${prepared.metadata.generateName}${nameSuffix()}`
        if (!this.log.get(namespacedKey(namespace, prepared.metadata.name))) break
      }
    }
    const admitted = admitMutated(def, admit(def, prepared, opts.fieldValidation, body), opts)
    if (!admitted.ok) return admitted
    const obj = recordUpdate(def, undefined, admitted.value, opts.fieldManager, undefined, nowMs)
    const nodeRefused = opts.nodeWriter && nodeWriteRefusal(def, opts.nodeWriter, undefined, obj)
    if (nodeRefused) return { ok: false, status: nodeRefused }
    const name = obj.metadata.name!
    const refused = validateCreate(def, obj)
    if (refused.length) return { ok: false, status: invalid(def.group, def.kind, name, refused) }
    const key = namespacedKey(namespace, name)
    if (this.log.get(key)) return { ok: false, status: alreadyExists(def.group, def.plural, name) }
    const unallocated = this.serviceAddresses(t, obj, undefined)
    if (unallocated) return { ok: false, status: unallocated }
    const tooBig = sizeCheck(obj)
    if (tooBig) return { ok: false, status: tooBig }
    if (opts.dryRun) return { ok: true, value: { object: JSON.stringify(obj), created: true }, warnings: admitted.warnings }
    const text = this.commit('ADDED', key, namespace ?? '', obj, undefined, nowMs)
    return { ok: true, value: { object: text, created: true }, warnings: admitted.warnings }
  }

  update(t: Target, body: KubeObject, subresource: WriteSubresource | undefined, opts: WriteOptions): StoreResult<WriteResult> {
    const { def } = t
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    const wantRv = body.metadata?.resourceVersion
    if (shownOtherVersion(opts, row)) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (wantRv && wantRv !== String(row.rv)) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (subresource === 'scale') {
      const scaled = fromScale(def, old, body)
      if (!scaled.ok) return scaled
      return this.replace(t, key, row, old, scaled.value, undefined, opts, (o) => JSON.stringify(toScale(def, o)))
    }
    if (subresource === 'finalize') {
      // PUT namespaces/{name}/finalize changes spec.finalizers only.
      const finalizers = ((body.spec ?? {}) as { finalizers?: unknown }).finalizers
      return this.replace(t, key, row, old, { ...old, spec: { ...(old.spec as object), finalizers: Array.isArray(finalizers) ? finalizers : [] } }, undefined, opts)
    }
    return this.replace(t, key, row, old, body, subresource, opts)
  }

  patch(t: Target, type: PatchType, patch: unknown, subresource: PatchSubresource | undefined, opts: WriteOptions): StoreResult<WriteResult> {
    const { def } = t
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    const apply = type === 'apply' && subresource !== 'scale' ? applyOptionsOf(opts, subresource === 'status' || subresource === 'approval' ? 'status' : undefined, this.clock()) : undefined
    if (apply && !apply.manager) return { ok: false, status: invalid('meta.k8s.io', 'PatchOptions', '', [{ field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' }]) }
    // An apply admitted as a change of a stored version that is gone since is not made as a create.
    if (!row && apply && !subresource && !opts.admission?.resourceVersion) return this.createOnApply(t, patch, apply, opts)
    if (!row && apply && !subresource) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    if (shownOtherVersion(opts, row)) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    const old = JSON.parse(row.value) as KubeObject
    if (subresource === 'scale') {
      const patched = applyPatch(def, type, toScale(def, old), patch, 'scale')
      if (!patched.ok) return patched
      const wantRv = patched.value.metadata?.resourceVersion
      if (wantRv && wantRv !== String(row.rv)) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
      const scaled = fromScale(def, old, patched.value)
      if (!scaled.ok) return scaled
      return this.replace(t, key, row, old, scaled.value, undefined, opts, (o) => JSON.stringify(toScale(def, o)))
    }
    const patched = applyPatch(def, type, old, patch, subresource === 'status' || subresource === 'approval' ? 'status' : undefined, apply)
    if (!patched.ok) return patched
    const wantRv = patched.value.metadata?.resourceVersion
    if (wantRv && wantRv !== String(row.rv)) return { ok: false, status: conflict(def.group, def.plural, t.name, staleObjectMessage) }
    // An apply has already recorded its ownership; the write must not record it again as an update.
    return this.replace(t, key, row, old, patched.value, subresource, apply ? { ...opts, fieldManager: undefined } : opts)
  }

  /** An apply to a missing object creates it from the configuration (validated and admitted as a create). */
  private createOnApply(t: Target, patch: unknown, apply: ApplyOptions, opts: WriteOptions): StoreResult<WriteResult> {
    const config = checkConfig(t.def, t.name, patch)
    if (!config.ok) return config
    config.value.metadata.name = t.name
    return this.create(t, objectToCreate(t.def, config.value, apply), { ...opts, fieldManager: undefined })
  }

  private replace(
    t: Target,
    key: string,
    row: StoredRow,
    old: KubeObject,
    incoming: KubeObject,
    subresource: ObjectSubresource | undefined,
    opts: WriteOptions,
    render: (o: KubeObject) => string = (o) => JSON.stringify(o),
  ): StoreResult<WriteResult> {
    const { def } = t
    const wantUid = incoming.metadata?.uid
    if (wantUid && wantUid !== old.metadata.uid) {
      return { ok: false, status: conflict(def.group, def.plural, t.name, `Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${old.metadata.uid}`) }
    }
    if (incoming.metadata?.name !== undefined && incoming.metadata.name !== t.name) {
      return { ok: false, status: failure(400, 'BadRequest', `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${t.name})`) }
    }
    const next = prepareForUpdate(def, old, { ...incoming, metadata: { ...(incoming.metadata ?? {}) } }, subresource)
    const validate = subresource === 'status' ? statusWriteValidation(def, old) : undefined
    const admitted = admitMutated(def, admit(def, next, opts.fieldValidation, incoming, validate), opts, (o) => prepareForUpdate(def, old, o, subresource), validate)
    if (!admitted.ok) return admitted
    const obj = recordUpdate(def, old, admitted.value, opts.fieldManager, subresource === 'status' || subresource === 'approval' ? 'status' : undefined, this.clock())
    const causes = validateUpdate(def, old, obj, subresource)
    if (causes.length) return { ok: false, status: invalid(def.group, def.kind, t.name, causes) }
    const refused = opts.nodeWriter && nodeWriteRefusal(def, opts.nodeWriter, old, obj)
    if (refused) return { ok: false, status: refused }
    const unallocated = this.serviceAddresses(t, obj, old)
    if (unallocated) return { ok: false, status: unallocated }
    obj.metadata.resourceVersion = String(row.rv)
    if (unchanged(old, obj)) return { ok: true, value: { object: render(old) }, warnings: admitted.warnings }
    const tooBig = sizeCheck(obj)
    if (tooBig) return { ok: false, status: tooBig }
    const finishing = !!obj.metadata.deletionTimestamp && !pendingFinalizers(def, obj).length && !obj.metadata.deletionGracePeriodSeconds
    if (opts.dryRun) return { ok: true, value: { object: render(obj) }, warnings: admitted.warnings }
    const text = this.commit(finishing ? 'DELETED' : 'MODIFIED', key, old.metadata.namespace ?? '', obj, row, this.clock(), old)
    return { ok: true, value: { object: render(JSON.parse(text) as KubeObject), deleted: finishing || undefined }, warnings: admitted.warnings }
  }

  /** POST pods/binding: sets spec.nodeName of an unbound pod and records PodScheduled=True. */
  bind(t: Target, nodeName: string, uid: string | undefined, opts: WriteOptions): StoreResult<WriteResult> {
    const { def } = t
    const key = namespacedKey(t.namespace, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    if (uid && old.metadata.uid !== uid) {
      return { ok: false, status: conflict(def.group, def.plural, t.name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid}`) }
    }
    const spec = (old.spec ?? {}) as { nodeName?: string }
    if (spec.nodeName) return { ok: false, status: conflict(def.group, def.plural, t.name, `pod ${t.name} is already assigned to node "${spec.nodeName}"`) }
    if (old.metadata.deletionTimestamp) return { ok: false, status: conflict(def.group, def.plural, t.name, `pod ${t.name} is being deleted, cannot be assigned to a host`) }
    const status = { ...((old.status ?? {}) as Record<string, unknown>) }
    const conditions = ((status.conditions as { type: string }[] | undefined) ?? []).filter((c) => c.type !== 'PodScheduled')
    status.conditions = [...conditions, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatTime(this.clock()) }]
    const next: KubeObject = { ...old, spec: { ...spec, nodeName }, status, metadata: { ...old.metadata } }
    if (opts.dryRun) return { ok: true, value: { object: JSON.stringify(next) } }
    const text = this.commit('MODIFIED', key, old.metadata.namespace ?? '', next, row, this.clock(), old)
    return { ok: true, value: { object: text } }
  }

  delete(t: Target, opts: DeleteOptions): StoreResult<WriteResult> {
    const { def } = t
    const key = namespacedKey(def.namespaced ? t.namespace : undefined, t.name)
    const row = this.log.get(key)
    if (!row) return { ok: false, status: notFound(def.group, def.plural, t.name) }
    const old = JSON.parse(row.value) as KubeObject
    const pre = opts.preconditions ?? {}
    if (pre.uid && pre.uid !== old.metadata.uid) {
      return { ok: false, status: conflict(def.group, def.plural, t.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`) }
    }
    if (pre.resourceVersion && pre.resourceVersion !== String(row.rv)) {
      return { ok: false, status: conflict(def.group, def.plural, t.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${row.rv}`) }
    }
    const nowMs = this.clock()
    const grace = gracePeriodFor(def, old, opts.gracePeriodSeconds)
    const finalizers = [...(old.metadata.finalizers ?? [])]
    const policyFinalizer = opts.propagationPolicy === 'Orphan' ? 'orphan' : opts.propagationPolicy === 'Foreground' ? 'foregroundDeletion' : undefined
    // As kube-apiserver: Orphan and Foreground are recorded as finalizers the garbage collector acts on.
    if (policyFinalizer && !finalizers.includes(policyFinalizer)) finalizers.push(policyFinalizer)
    const stays = finalizers.length > 0 || grace > 0 || pendingFinalizers(def, old).length > 0
    if (!stays) {
      if (opts.dryRun) return { ok: true, value: { object: row.value, pending: false } }
      const text = this.commit('DELETED', key, old.metadata.namespace ?? '', old, row, nowMs)
      return { ok: true, value: { object: text, pending: false } }
    }
    const meta = { ...old.metadata, finalizers: finalizers.length ? finalizers : undefined }
    const already = old.metadata.deletionTimestamp
    const previousGrace = Number(old.metadata.deletionGracePeriodSeconds ?? 0)
    if (!already || grace < previousGrace) {
      meta.deletionTimestamp = formatTime(nowMs + grace * 1000)
      meta.deletionGracePeriodSeconds = grace
    }
    if (meta.finalizers === undefined) delete meta.finalizers
    const next: KubeObject = { ...old, metadata: meta }
    // As kube-apiserver: a namespace being deleted is Terminating until its content is gone.
    if (def.group === '' && def.kind === 'Namespace') next.status = { ...((old.status ?? {}) as object), phase: 'Terminating' }
    if (unchanged(old, next)) return { ok: true, value: { object: row.value, pending: true } }
    if (opts.dryRun) return { ok: true, value: { object: JSON.stringify(next), pending: true } }
    const text = this.commit('MODIFIED', key, old.metadata.namespace ?? '', next, row, nowMs, old)
    return { ok: true, value: { object: text, pending: true } }
  }

  /** ClusterIPs and node ports of a Service, checked against the services stored here (this store is their only writer). */
  private serviceAddresses(t: Target, obj: KubeObject, old: KubeObject | undefined): Status | undefined {
    return serviceAddressesFor(t.def, obj, old, () => this.log.scanCurrent(undefined, ''), this.serviceClusterIpRange)
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
        const { rv, text } = this.log.append('DELETED', row.key, object.metadata.namespace ?? '', object, row, nowMs)
        this.index({ type: 'DELETED', key: row.key, object })
        return { type: 'DELETED', rv, key: row.key, object, text }
      }),
    )
    for (const change of changes) this.tell(change)
    return rows.length
  }

  private commit(type: Change['type'], key: string, namespace: string, obj: KubeObject, previous: StoredRow | undefined, nowMs: number, previousObject?: KubeObject): string {
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

function applyOptionsOf(opts: WriteOptions, subresource: 'status' | undefined, nowMs: number): ApplyOptions {
  return { manager: opts.fieldManager ?? '', force: (opts as ApplyWriteOptions).force === true, subresource, nowMs }
}

function sizeCheck(obj: KubeObject): Status | undefined {
  const size = JSON.stringify(obj).length
  if (size <= maxStoredObjectBytes) return undefined
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: the object is ${size} bytes; the limit is ${maxStoredObjectBytes}`)
}
