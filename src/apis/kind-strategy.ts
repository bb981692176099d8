/**
 * What one kind does to its objects as they are written, as upstream's registry strategies
 * (k8s.io/apiserver/pkg/registry/rest: RESTCreateStrategy, RESTUpdateStrategy,
 * RESTGracefulDeleteStrategy, and the strategies of a kind's subresources). Each kind's strategy
 * lives with the kind and is found by its identity, group and resource (./kind-strategies.ts).
 * Every hook is optional: where a kind has none, the generic strategy (./strategy.ts) does what
 * it does for every kind.
 */
import type { KubeObject, Status } from '../apimachinery/types'
import type { StoreResult } from '../apimachinery/status'
import type { FieldCause } from '../apimachinery/field-errors'
import type { Json } from '../apimachinery/json-value'
import type { Requester } from './certificates/csr-object'
import type { NodeWriter } from './node-restriction'

/** What a create knows beyond the object. */
export interface CreateContext {
  nowMs: number
  /** who asks (kinds that record their creator) */
  requester?: Requester
}

/** The server's settings a kind's store-side checks read. */
export interface StoreConfig {
  /** SERVICE_CLUSTER_IP_RANGE: where Service cluster IPs are allocated (unset: the default range) */
  serviceClusterIpRange?: string
  /** EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: how long a node's Lease may go unrenewed (unset: node Leases have no deadline) */
  nodeMonitorGracePeriodMs?: number
}

export interface KindStrategy {
  /** Defaulting (upstream's SetDefaults_<Kind>), on every create and update of the object itself. */
  defaults?(obj: KubeObject): void
  /** The pod specs the object holds (its own, its template's): each gets the PodSpec defaults first. */
  podSpecs?(obj: KubeObject): Json[]
  /** The status a new object of a kind with a status subresource starts with (unset: `{}`). */
  initialStatus?(obj: KubeObject): unknown
  /** PrepareForCreate: what the server sets on a new object once it is defaulted. */
  prepareForCreate?(obj: KubeObject, ctx: CreateContext): void
  /** PrepareForUpdate: a write of the object itself, merged over the stored one and defaulted; returns what is stored. */
  prepareForUpdate?(old: KubeObject, obj: KubeObject): KubeObject
  /** Validate: the kind's rules for the object (after its metadata's), on create and on update. */
  validate?(obj: KubeObject): FieldCause[]
  /** The rules only a create is held to. */
  validateCreate?(obj: KubeObject): FieldCause[]
  /** ValidateUpdate: rules comparing any update (of the object or a subresource) with the stored object. */
  validateUpdate?(old: KubeObject, obj: KubeObject): FieldCause[]
  /** A status write's rules beyond metadata (upstream's ValidateXxxStatusUpdate). */
  validateStatus?(obj: KubeObject, old: KubeObject): FieldCause[]
  /** WarningsOnCreate and WarningsOnUpdate: said on every accepted write. */
  warnings?: readonly string[]
  /** How the kind's selector reads as its Scale's status.selector (unset: a LabelSelector's string). */
  scaleSelector?(obj: KubeObject): string
  /** Subresources with a strategy of their own; `status` and `scale` have generic ones (./subresources.ts). */
  subresources?: Readonly<Record<string, SubresourceStrategy>>
  /** Finalizers besides metadata.finalizers that hold the object's deletion. */
  finalizers?(obj: KubeObject): string[]
  /** RESTGracefulDeleteStrategy: the seconds a deletion waits (unset: none). */
  gracePeriod?(obj: KubeObject, requested: number | undefined): number
  /** The object as it waits for its finalizers once its deletion began. */
  prepareForDelete?(obj: KubeObject): void
  /** A binding to a node (`<resource>/binding`): the object bound, or why it cannot be. */
  bind?(obj: KubeObject, nodeName: string, nowMs: number): StoreResult<KubeObject>
  /**
   * Checks made inside the store's write against the kind's other stored objects (`stored`: the
   * current rows): what the object is given (a Service's addresses), or why it cannot be stored.
   */
  allocate?(
    obj: KubeObject,
    old: KubeObject | undefined,
    stored: () => Iterable<{ value: string }>,
    config: StoreConfig,
  ): Status | undefined
  /** NodeRestriction on the object as stored, for a write a node makes: why it is refused, or undefined. */
  nodeWriteRefusal?(
    writer: NodeWriter,
    old: KubeObject | undefined,
    obj: KubeObject,
  ): string | undefined
  /** Objects are removed a while after their last write (kube-apiserver's --event-ttl). */
  expires?: boolean
  /**
   * When an object unchanged since becomes of interest again (a node Lease unrenewed past the
   * node monitor grace period): the store announces it then to the controllers that watch the
   * kind's deadlines, while writes that only move it later wake nobody. Undefined: never.
   */
  deadline?(obj: KubeObject, config: StoreConfig): number | undefined
  /** The store keeps an index of what the objects bound to each node reference (the Node authorizer's question). */
  nodeReferences?: boolean
  /**
   * An update that supersedes an update the store's log still holds above its compacted revision
   * rewrites that change's log row instead of adding one (a Lease's renewals): watchers see every
   * change live, while a watch resumed from before it sees the latest state once, as after
   * compaction, and a list at an older resourceVersion shows the revision before it.
   */
  compactsUpdatesInPlace?: boolean
}

/** How a write through one subresource changes the stored object. */
export interface SubresourceStrategy {
  /** The subresource shows the object as another kind (a Scale): what it reads, patches and answers. */
  view?(obj: KubeObject): KubeObject
  /** A body that makes a write of the object itself (a Scale's replicas, a Namespace's finalizers). */
  toObject?(old: KubeObject, body: KubeObject): StoreResult<KubeObject>
  /** Otherwise: the object a write through the subresource stores (its PrepareForUpdate). */
  prepareForUpdate?(old: KubeObject, incoming: KubeObject): KubeObject
  /** What prepareForUpdate makes is defaulted as a write of the object itself is. */
  defaulted?: boolean
  /** Rules for a write through the subresource beyond the kind's own update rules. */
  validateUpdate?(old: KubeObject, obj: KubeObject): FieldCause[]
  /** A write is validated as a status write (metadata and the kind's status rules), not as the whole object. */
  validatesStatus?: boolean
  /** The part of the object it writes: patches apply to it and the fields written are owned as it. */
  part?: 'status' | 'scale'
}
