import type { ControllerBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import type { StoreResult } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/resource-def'
import type {
  DeleteOptions,
  ItemResult,
  PatchType,
  Target,
  WriteOptions,
  WriteResult,
} from '../../apis/store-options'
import type { PatchSubresource, WriteSubresource } from '../../apis/write-subresource'
import type { UserInfo } from '../../apimachinery/user-info'
import { storeFor } from '../../store-client/stores'
import { admittedStore } from '../../admission/webhooks/admitted-store'
import { admitControllerCreate } from '../../admission/create'
import type { AdmissionLookups } from '../../admission/lookups'

/** One kind's store, as a controller writes to it: the kind store's own write methods. */
export interface StoreWriter {
  create(t: Target, body: KubeObject, opts: WriteOptions): Promise<StoreResult<WriteResult>>
  update(
    t: Target,
    body: KubeObject,
    subresource: WriteSubresource | undefined,
    opts: WriteOptions,
  ): Promise<StoreResult<WriteResult>>
  patch(
    t: Target,
    type: PatchType,
    patch: unknown,
    subresource: PatchSubresource | undefined,
    opts: WriteOptions,
  ): Promise<StoreResult<WriteResult>>
  delete(t: Target, opts: DeleteOptions): Promise<StoreResult<WriteResult>>
}

/** The pods store's POST pods/binding. */
export interface PodBinder {
  bind(
    t: Target,
    nodeName: string,
    uid: string | undefined,
    opts: WriteOptions,
  ): Promise<StoreResult<WriteResult>>
}

/** Many creates in one call, each with its own answer (the events a controller records). */
export interface BatchCreator {
  createMany(def: ResourceDef, objects: KubeObject[]): Promise<ItemResult[]>
}

/**
 * Everything a controller's actions write through (see dispatch.ts): the stores, with and without
 * the admission webhooks, and the admission plugins a controller's create passes. The runner's are
 * the Durable Objects (`envStores`); a unit test's are in memory, so its actions are applied by the
 * same code.
 */
export interface ControllerStores {
  /** a kind's store, written directly (events, bindings, a namespace's finalize) */
  store(def: ResourceDef): StoreWriter & PodBinder & BatchCreator
  /** a kind's store whose writes pass the admission webhooks as `user` */
  admitted(def: ResourceDef, user: UserInfo): StoreWriter
  /**
   * the admission plugins a controller's create passes before its store sees it (may change the
   * object, or throw an ApiError); LimitRanges and quotas are read through `lookups` when given;
   * `user` is the controller's (PodSecurity's exempt usernames)
   */
  admitCreate(
    def: ResourceDef,
    target: Target,
    object: KubeObject,
    lookups?: AdmissionLookups,
    user?: UserInfo,
  ): Promise<void>
}

/** The Durable Object stores of a Worker's environment. */
export function envStores(env: ControllerBindings): ControllerStores {
  return {
    store: (def) => storeFor(env, def),
    admitted: (def, user) => admittedStore(env, def, user),
    // Admission as for any client's create (a ReplicaSet's pod, a StatefulSet's volumeClaimTemplates).
    admitCreate: (_def, target, object, lookups, user) =>
      admitControllerCreate(env, target, object, lookups, user),
  }
}
