import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome } from '../runtime/types'
import { toDeployment, toReplicaSet, type Deployment, type ReplicaSet } from '../shared/workloads'
import { REVISION_ANNOTATION } from './replica-sets'
import { jsonEqual } from '../../apimachinery/json-value'
import { deployments, replicaSets } from '../resources'
import { statusWrite } from '../shared/status-write'

/**
 * One sync's working state, kcp-style: the steps mutate deep copies of the Deployment and of its
 * ReplicaSets, and `commit` turns the differences into actions, at most one write per object. So a
 * ReplicaSet adopted, re-annotated and scaled in one pass gets a single update, and the several
 * status writes upstream makes in one sync become one.
 */
export class Plan {
  readonly d: Deployment
  private readonly originals = new Map<ReplicaSet, KubeObject>()
  private readonly changed: ReplicaSet[] = []
  private readonly created: ReplicaSet[] = []
  private readonly deleted = new Set<ReplicaSet>()
  private readonly releases: Action[] = []
  private readonly events = new Map<ReplicaSet | undefined, Action[]>()
  private requeueMs: number | undefined
  /** the ReplicaSet this pass creates, so a second lookup in the same pass finds it */
  newlyCreated: ReplicaSet | undefined

  constructor(
    readonly stored: KubeObject,
    readonly cache: Cache,
    readonly now: number,
  ) {
    this.d = toDeployment(stored)
  }

  /** A working copy of a cached ReplicaSet, to be written back if a step changes it. */
  track(o: KubeObject): ReplicaSet {
    const rs = toReplicaSet(o)
    this.originals.set(rs, o)
    return rs
  }

  /** Marks a tracked ReplicaSet as changed; writes keep the order of first change. */
  touch(rs: ReplicaSet): void {
    if (this.originals.has(rs) && !this.changed.includes(rs)) this.changed.push(rs)
  }

  isTouched(rs: ReplicaSet): boolean {
    return this.changed.includes(rs)
  }

  create(rs: ReplicaSet): void {
    this.created.push(rs)
    this.newlyCreated = rs
  }

  delete(rs: ReplicaSet): void {
    this.deleted.add(rs)
  }

  release(action: Action): void {
    this.releases.push(action)
  }

  /** An event about the Deployment, written right after the write to `rs` it reports (or at the end). */
  event(
    rs: ReplicaSet | undefined,
    eventType: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): void {
    const list = this.events.get(rs) ?? []
    list.push({ type: 'event', involved: this.stored, eventType, reason, message })
    this.events.set(rs, list)
  }

  requeueAfter(ms: number | undefined): void {
    if (ms !== undefined && (this.requeueMs === undefined || ms < this.requeueMs))
      this.requeueMs = ms
  }

  commit(): Outcome {
    const actions: Action[] = [...this.releases]
    const eventsOf = (rs: ReplicaSet) => this.events.get(rs) ?? []
    for (const rs of this.created)
      actions.push({ type: 'create', resource: replicaSets, object: rs }, ...eventsOf(rs))
    // Untouched ones may still differ from the cache by an adoption.
    const untouched = [...this.originals.keys()].filter((rs) => !this.changed.includes(rs))
    for (const rs of [...this.changed, ...untouched]) {
      if (this.deleted.has(rs)) continue
      const write = writeOf(this.originals.get(rs)!, rs)
      if (write) actions.push(write)
      actions.push(...eventsOf(rs))
    }
    for (const rs of this.deleted) {
      actions.push({
        type: 'delete',
        resource: replicaSets,
        namespace: rs.metadata.namespace,
        name: rs.metadata.name ?? '',
        preconditions: { uid: rs.metadata.uid },
      })
    }
    if (!jsonEqual(this.d.status, this.stored.status ?? {}))
      actions.push(statusWrite(deployments, this.stored, this.d.status))
    const revision = this.d.metadata.annotations?.[REVISION_ANNOTATION]
    if (
      revision !== undefined &&
      revision !== this.stored.metadata.annotations?.[REVISION_ANNOTATION]
    ) {
      const { namespace, name = '' } = this.stored.metadata
      actions.push({
        type: 'patch',
        resource: deployments,
        namespace,
        name,
        patch: { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } },
      })
    }
    actions.push(...(this.events.get(undefined) ?? []))
    return this.requeueMs === undefined ? { actions } : { actions, requeueAfterMs: this.requeueMs }
  }
}

const withoutOwners = (o: KubeObject) => ({
  ...o,
  metadata: { ...o.metadata, ownerReferences: undefined },
})

/** Nothing; a merge patch of the owner references when only they changed (adoption); otherwise a full update. */
function writeOf(original: KubeObject, rs: ReplicaSet): Action | undefined {
  if (jsonEqual(original, rs)) return undefined
  const { namespace, name = '' } = original.metadata
  if (jsonEqual(withoutOwners(original), withoutOwners(rs))) {
    return {
      type: 'patch',
      resource: replicaSets,
      namespace,
      name,
      patch: {
        metadata: {
          ownerReferences: rs.metadata.ownerReferences ?? null,
          resourceVersion: original.metadata.resourceVersion,
        },
      },
    }
  }
  return { type: 'update', resource: replicaSets, object: rs }
}
