import type { KubeObject } from '../apimachinery/types'
import type { StoreResult } from '../apimachinery/status'
import type { ResourceDef } from '../apis/resource-def'
import type {
  Binding,
  DeleteOptions,
  ItemResult,
  ListOptions,
  ListResult,
  PatchType,
  Target,
  WriteOptions,
  WriteResult,
} from '../apis/store-options'
import type { PatchSubresource, WriteSubresource } from '../apis/write-subresource'
import type { Variables } from '../settings/variables'
import type { ObjectUsage } from '../limits/object-usage'

/** A slice of the change log. */
export interface ChangeBatch {
  changes: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; value: string }[]
  /** the resourceVersion the batch brings a reader up to */
  rv: number
  more: boolean
}

/** What a namespace holds of one kind: objects, and how many carry each finalizer. */
export interface NamespaceContent {
  count: number
  finalizers: Record<string, number>
}

/**
 * The calls the Worker makes on the store of one kind (durable-objects/kind-store, which implements
 * them), as the store answers them; through its stub each answer comes as a promise. Watches are
 * the stub's `fetch` (a WebSocket upgrade).
 */
export interface KindStoreRpc extends Rpc.DurableObjectBranded {
  get(t: Target): StoreResult<string>
  list(resource: string, opts: ListOptions): StoreResult<ListResult>
  create(t: Target, body: KubeObject, opts: WriteOptions): StoreResult<WriteResult>
  update(
    t: Target,
    body: KubeObject,
    subresource: WriteSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult>
  patch(
    t: Target,
    type: PatchType,
    patch: unknown,
    subresource: PatchSubresource | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult>
  delete(t: Target, opts: DeleteOptions): StoreResult<WriteResult>
  bind(
    t: Target,
    nodeName: string,
    uid: string | undefined,
    opts: WriteOptions,
  ): StoreResult<WriteResult>
  /** many bindings, each its own write with its own answer, in order; it may answer fewer than it was sent */
  bindMany(def: ResourceDef, bindings: Binding[]): ItemResult[]
  /** many creates, answered as bindMany answers */
  createMany(def: ResourceDef, objects: KubeObject[]): ItemResult[]
  /** changes after `rv`, oldest first; 410 Expired once the log was compacted past it */
  changesSince(rv: number, limit: number): StoreResult<ChangeBatch>
  /** closes the patch streams writing objects named `name` (all when undefined); how many were open */
  closePatchStreams(code: number, reason: string, name?: string): number
  namespaceContent(namespace: string): NamespaceContent
  /** deletes the objects of one LIST page the options select, answering with the page */
  deleteCollection(
    t: Omit<Target, 'name'>,
    list: ListOptions,
    opts: DeleteOptions,
  ): StoreResult<ListResult>
  /** the resourceVersion of the last change */
  revision(): number
  /** the pods store: whether a pod bound to `node` references `resource` `namespace/name` */
  nodeRefers(node: string, resource: string, namespace: string, name: string): boolean
  /** what the store is billed for, in strict-limits mode (null otherwise) */
  readUsage(): ObjectUsage | null
}

/**
 * What the store client needs of the Worker's environment: the stores, and the variables (strict
 * limits). A namespace is named by the calls it is asked for (`idFromName`, `get`), so that the
 * Worker's own namespace, whose stubs carry every method of the class, is one.
 */
export interface StoreBindings extends Variables {
  /** one store per kind, named by its `group/plural` (storeName) */
  KIND_STORE: Pick<DurableObjectNamespace<KindStoreRpc>, 'idFromName' | 'get'>
}
