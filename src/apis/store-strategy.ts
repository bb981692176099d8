/**
 * What the store's writer asks of the kinds: every step of a write that depends on what the
 * object is (its kind's strategy, its schema), so that the store itself holds only the mechanics
 * of storing (keys, versions, preconditions, the log, watchers). The Worker entry builds it with
 * `storeKinds` and hands it to the store, which never imports the kinds.
 */
import type { KubeObject, Status, StatusCause } from '../apimachinery/types'
import {
  failure,
  methodNotAllowed,
  qualifiedResource,
  type StoreResult,
} from '../apimachinery/status'
import type { ResourceDef } from './resource-def'
import { storedResources, storeName } from './registry'
import type { StoreConfig, SubresourceStrategy } from './kind-strategy'
import type { ApplyWriteOptions, PatchType, WriteOptions } from './store-options'
import type { NodeWriter } from './node-restriction'
import type { Requester } from './certificates/csr-object'
import { strategyOf } from './kind-strategies'
import { subresourceOf } from './subresources'
import {
  gracePeriodFor,
  pendingFinalizers,
  prepareForCreate,
  prepareForUpdate,
  validateCreate,
  validateUpdate,
} from './strategy'
import { admit } from './write-checks'
import { statusWriteValidation } from './validate-status'
import { applyPatch } from './patching'
import { checkConfig, objectToCreate, type ApplyOptions } from './ssa/apply'
import { recordUpdate } from './ssa/track'

/** How a write through a subresource is made, as far as the store is concerned. */
export type StoreSubresource = Pick<SubresourceStrategy, 'view' | 'toObject' | 'part'>

/** One kind's store-side strategy. */
export interface StoreStrategy {
  /** objects are removed a while after their last write (Events) */
  readonly expires: boolean
  /** the kind's objects may have deadlines (see `deadline`) */
  readonly hasDeadlines: boolean
  /** when the object, unchanged since, is announced to the controllers watching the kind's deadlines */
  deadline(obj: KubeObject): number | undefined
  /** the store keeps the index of what the objects bound to each node reference (pods) */
  readonly nodeReferences: boolean
  /** an update superseding an update still in the log rewrites its log row (Leases; see KindStrategy) */
  readonly compactsUpdatesInPlace: boolean
  /** how a write through the subresource is made; undefined when the kind has no such subresource */
  subresource(name: string): StoreSubresource | undefined
  /** a create's body with its system fields, defaults and the kind's preparation */
  prepareForCreate(body: KubeObject, nowMs: number, requester: Requester | undefined): KubeObject
  /**
   * Decoding and validation of the object about to be stored (`incoming`: as the client sent it),
   * then the admission webhooks' patch applied and admitted again; an update names the stored
   * object and the subresource written.
   */
  admit(
    obj: KubeObject,
    incoming: unknown,
    opts: WriteOptions,
    update?: { old: KubeObject; subresource: string | undefined },
  ): StoreResult<KubeObject>
  /** managedFields after a write that is not an apply, by `manager` */
  recordFields(
    old: KubeObject | undefined,
    obj: KubeObject,
    manager: string | undefined,
    subresource: string | undefined,
    nowMs: number,
  ): KubeObject
  validateCreate(obj: KubeObject): StatusCause[]
  /** an update's body merged over the stored object as a write of `subresource` (or of the object itself) keeps it */
  prepareForUpdate(
    old: KubeObject,
    incoming: KubeObject,
    subresource: string | undefined,
  ): KubeObject
  validateUpdate(old: KubeObject, obj: KubeObject, subresource: string | undefined): StatusCause[]
  /** a server-side apply's options; undefined where no apply is made (a subresource of another kind) */
  applyOptions(
    opts: WriteOptions,
    subresource: string | undefined,
    nowMs: number,
  ): ApplyOptions | undefined
  /** `original` (the object, or the subresource's view of it) patched */
  applyPatch(
    type: PatchType,
    original: KubeObject,
    patch: unknown,
    subresource: string | undefined,
    apply: ApplyOptions | undefined,
  ): StoreResult<KubeObject>
  /** the object a server-side apply to a missing `name` creates */
  createOnApply(name: string, patch: unknown, apply: ApplyOptions): StoreResult<KubeObject>
  /** NodeRestriction's 403 for a node's write of the object as stored, or undefined */
  nodeWriteRefusal(
    writer: NodeWriter,
    old: KubeObject | undefined,
    obj: KubeObject,
  ): Status | undefined
  /** what the object is given against the kind's other stored objects, or why it cannot be stored */
  allocate(
    obj: KubeObject,
    old: KubeObject | undefined,
    stored: () => Iterable<{ value: string }>,
  ): Status | undefined
  pendingFinalizers(obj: KubeObject): string[]
  gracePeriod(obj: KubeObject, requested: number | undefined): number
  /** the object as it waits for its finalizers once its deletion began */
  prepareForDelete(obj: KubeObject): void
  /** the object bound to a node; a refusal for a kind that is never bound */
  bind(obj: KubeObject, nodeName: string, nowMs: number): StoreResult<KubeObject>
}

export interface StoreKinds {
  of(def: ResourceDef): StoreStrategy
  /**
   * The strategy of the built-in kind kept in the store named `name` (`group/plural`): how a store
   * that has not served a write since it started (an alarm wakes it) knows its kind.
   */
  ofStore(name: string): StoreStrategy | undefined
}

/** The store-side strategies of every kind, with the server's settings they read. */
export function storeKinds(config: StoreConfig = {}): StoreKinds {
  // Built once per definition, not per write; a custom resource's new definition gets its own.
  const built = new WeakMap<ResourceDef, StoreStrategy>()
  return {
    of(def) {
      let strategy = built.get(def)
      if (!strategy) built.set(def, (strategy = storeStrategy(def, config)))
      return strategy
    },
    ofStore(name) {
      const def = storedResources.find((d) => storeName(d) === name)
      return def && this.of(def)
    },
  }
}

function storeStrategy(def: ResourceDef, config: StoreConfig): StoreStrategy {
  const kind = strategyOf(def)
  const partOf = (subresource: string | undefined) =>
    subresource === undefined ? undefined : subresourceOf(def, subresource)?.part
  const ownedPart = (subresource: string | undefined) =>
    partOf(subresource) === 'status' ? 'status' : undefined
  return {
    expires: kind.expires === true,
    hasDeadlines: kind.deadline !== undefined,
    deadline: (obj) => kind.deadline?.(obj, config),
    nodeReferences: kind.nodeReferences === true,
    compactsUpdatesInPlace: kind.compactsUpdatesInPlace === true,
    subresource: (name) => subresourceOf(def, name),
    prepareForCreate: (body, nowMs, requester) => prepareForCreate(def, body, nowMs, requester),
    admit(obj, incoming, opts, update) {
      const validate =
        update?.subresource !== undefined && subresourceOf(def, update.subresource)?.validatesStatus
          ? statusWriteValidation(def, update.old)
          : undefined
      const admitted = admit(def, obj, opts.fieldValidation, incoming, validate)
      const patch = opts.admission?.patch
      if (!admitted.ok || !patch?.length) return admitted
      // The object as admission webhooks patched it, admitted again (validation runs after
      // mutation, as upstream); an update keeps what it may not change (a status write, the spec).
      const patched = applyPatch(def, 'json', admitted.value, patch)
      if (!patched.ok)
        return {
          ok: false,
          status: failure(
            500,
            'InternalError',
            `Internal error occurred: the admission webhooks' patch could not be applied: ${patched.status.message}`,
          ),
        }
      const prepared = update
        ? prepareForUpdate(def, update.old, patched.value, update.subresource)
        : patched.value
      const again = admit(def, prepared, 'Ignore', undefined, validate)
      return again.ok
        ? { ...again, warnings: [...(admitted.warnings ?? []), ...(again.warnings ?? [])] }
        : again
    },
    recordFields: (old, obj, manager, subresource, nowMs) =>
      recordUpdate(def, old, obj, manager, ownedPart(subresource), nowMs),
    validateCreate: (obj) => validateCreate(def, obj),
    prepareForUpdate: (old, incoming, subresource) =>
      prepareForUpdate(def, old, incoming, subresource),
    validateUpdate: (old, obj, subresource) => validateUpdate(def, old, obj, subresource),
    applyOptions(opts, subresource, nowMs) {
      if (subresource !== undefined && subresourceOf(def, subresource)?.view) return undefined
      return {
        manager: opts.fieldManager ?? '',
        force: (opts as ApplyWriteOptions).force === true,
        subresource: ownedPart(subresource),
        nowMs,
      }
    },
    applyPatch: (type, original, patch, subresource, apply) =>
      applyPatch(def, type, original, patch, partOf(subresource), apply),
    createOnApply(name, patch, apply) {
      const config = checkConfig(def, name, patch)
      if (!config.ok) return config
      config.value.metadata.name = name
      return { ok: true, value: objectToCreate(def, config.value, apply) }
    },
    nodeWriteRefusal(writer, old, obj) {
      const why = kind.nodeWriteRefusal?.(writer, old, obj)
      if (!why) return undefined
      const name = obj.metadata.name ?? ''
      return failure(
        403,
        'Forbidden',
        `${qualifiedResource(def.group, def.plural)} "${name}" is forbidden: ${why}`,
        { name, group: def.group, kind: def.plural },
      )
    },
    allocate: (obj, old, stored) => kind.allocate?.(obj, old, stored, config),
    pendingFinalizers: (obj) => pendingFinalizers(def, obj),
    gracePeriod: (obj, requested) => gracePeriodFor(def, obj, requested),
    prepareForDelete: (obj) => kind.prepareForDelete?.(obj),
    bind(obj, nodeName, nowMs) {
      if (kind.bind) return kind.bind(obj, nodeName, nowMs)
      return {
        ok: false,
        status: methodNotAllowed(
          `${qualifiedResource(def.group, def.plural)} cannot be bound to a node`,
        ),
      }
    },
  }
}
