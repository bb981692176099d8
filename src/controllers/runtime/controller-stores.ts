import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import type { StoreResult } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/registry'
import type { DeleteOptions, PatchType, Target, WriteOptions, WriteResult } from '../../apis/store-options'
import type { UserInfo } from '../../apimachinery/user-info'
import { storeFor } from '../../store-client/stores'
import { admittedStore } from '../../admission/webhooks/admitted-store'
import { admitControllerCreate } from '../../admission/create'
import type { AdmissionLookups } from '../../admission/lookups'
import { emptyNamespace } from '../namespace/empty'
import { signedStatus } from '../csr-signing/issue'
import { purgeCustomResources } from './purge'
import type { Action, ResourceRef } from './types'

type Subresource = 'status' | 'approval' | 'scale' | 'ephemeralcontainers' | undefined

/** One kind's store, as a controller writes to it: the kind store's own write methods. */
export interface StoreWriter {
  create(t: Target, body: KubeObject, opts: WriteOptions): Promise<StoreResult<WriteResult>>
  update(t: Target, body: KubeObject, subresource: Subresource | 'finalize', opts: WriteOptions): Promise<StoreResult<WriteResult>>
  patch(t: Target, type: PatchType, patch: unknown, subresource: Subresource, opts: WriteOptions): Promise<StoreResult<WriteResult>>
  delete(t: Target, opts: DeleteOptions): Promise<StoreResult<WriteResult>>
}

/** The pods store's POST pods/binding. */
export interface PodBinder {
  bind(t: Target, nodeName: string, uid: string | undefined, opts: WriteOptions): Promise<StoreResult<WriteResult>>
}

/**
 * Everything a controller's actions write through (applyAction): the stores, with and without
 * the admission webhooks, the admission plugins a controller's create passes, and the actions
 * that read several stores at once. The runner's are the Durable Objects (`envStores`); a unit
 * test's are in memory, so its actions are applied by the same code.
 */
export interface ControllerStores {
  /** a kind's store, written directly (events, bindings, a namespace's finalize) */
  store(def: ResourceDef): StoreWriter & PodBinder
  /** a kind's store whose writes pass the admission webhooks as `user` */
  admitted(def: ResourceDef, user: UserInfo): StoreWriter
  /**
   * the admission plugins a controller's create passes before its store sees it (may change the
   * object, or throw an ApiError); LimitRanges and quotas are read through `lookups` when given;
   * `user` is the controller's (PodSecurity's exempt usernames)
   */
  admitCreate(def: ResourceDef, target: Target, object: KubeObject, lookups?: AdmissionLookups, user?: UserInfo): Promise<void>
  /** deletes a terminating CRD's objects, then releases its cleanup finalizer */
  purgeCustomResources(crd: KubeObject): Promise<{ object: KubeObject; deleted?: boolean } | undefined>
  /** empties a terminating namespace of the given kinds, returning what is left to do */
  emptyNamespace(ns: KubeObject, resources: readonly ResourceRef[], now: number): Promise<Action[]>
  /** an approved CSR with its certificate signed by the cluster CA */
  signedStatus(csr: KubeObject, notBefore: number, notAfter: number, now: number): Promise<KubeObject>
}

/** The Durable Object stores of a Worker's environment. */
export function envStores(env: Env): ControllerStores {
  return {
    store: (def) => storeFor(env, def) as unknown as StoreWriter & PodBinder,
    admitted: (def, user) => admittedStore(env, def, user),
    // Admission as for any client's create (a ReplicaSet's pod, a StatefulSet's volumeClaimTemplates).
    admitCreate: (_def, target, object, lookups, user) => admitControllerCreate(env, target, object, lookups, user),
    purgeCustomResources: (crd) => purgeCustomResources(env, crd),
    emptyNamespace: (ns, resources, now) => emptyNamespace(env, ns, resources, now),
    signedStatus: (csr, notBefore, notAfter, now) => signedStatus(env, csr, notBefore, notAfter, now),
  }
}
