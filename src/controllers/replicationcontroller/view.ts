import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import { sameResource } from '../resources'
import type { Action, Cache, ResourceRef } from '../runtime/types'
import { replicaSets, replicationControllers } from '../resources'
import { statusWrite } from '../shared/status-write'

const views = new WeakMap<KubeObject, KubeObject>()

/**
 * A ReplicationController seen as the ReplicaSet it is equivalent to (upstream runs the
 * ReplicaSet controller over converted RCs the same way): its equality-based selector becomes
 * `matchLabels`. Memoised per cached object, so the view keeps its identity between calls.
 */
export function asReplicaSet(rc: KubeObject): KubeObject {
  let view = views.get(rc)
  if (view) return view
  const spec = (rc.spec ?? {}) as { selector?: Record<string, string> }
  view = {
    ...rc,
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    spec: { ...spec, selector: { matchLabels: { ...(spec.selector ?? {}) } } },
  }
  views.set(rc, view)
  return view
}

/** The caches with ReplicationControllers in place of ReplicaSets; pods and the rest as they are. */
export class ReplicationControllerCache implements Cache {
  constructor(private readonly inner: Cache) {}

  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    if (!sameResource(resource, replicaSets)) return this.inner.get(resource, namespace, name)
    const rc = this.inner.get(replicationControllers, namespace, name)
    return rc && asReplicaSet(rc)
  }

  list(resource: ResourceRef, namespace?: string): KubeObject[] {
    if (!sameResource(resource, replicaSets)) return this.inner.list(resource, namespace)
    return this.inner.list(replicationControllers, namespace).map(asReplicaSet)
  }
}

/** The ReplicationController a ReplicaSet view (or a copy of one) stands for; other objects as they are. */
function original(o: KubeObject, cache: Cache): KubeObject {
  if (o.kind !== 'ReplicaSet') return o
  return (
    cache.get(replicationControllers, o.metadata.namespace, o.metadata.name ?? '') ?? {
      ...o,
      apiVersion: 'v1',
      kind: 'ReplicationController',
    }
  )
}

/** A controller reference the ReplicaSet logic wrote for an RC, pointing at the RC again. */
function asRcRef(ref: OwnerReference, rcUids: ReadonlySet<string>): OwnerReference {
  return ref.kind === 'ReplicaSet' && rcUids.has(ref.uid)
    ? { ...ref, apiVersion: 'v1', kind: 'ReplicationController' }
    : ref
}

/**
 * The actions of the ReplicaSet logic, made about ReplicationControllers: status written to the
 * RC, events about the RC, and pods created or patched with the RC as their controller.
 */
export function toRcActions(actions: readonly Action[], cache: Cache): Action[] {
  const rcUids = new Set(cache.list(replicationControllers).map((rc) => rc.metadata.uid ?? ''))
  return actions.map((a): Action => {
    switch (a.type) {
      case 'updateStatus': {
        if (!sameResource(a.resource, replicaSets)) return a
        return statusWrite(replicationControllers, original(a.object, cache), a.object.status)
      }
      case 'event':
        return { ...a, involved: original(a.involved, cache) }
      case 'create': {
        const refs = a.object.metadata.ownerReferences
        return refs
          ? {
              ...a,
              object: {
                ...a.object,
                metadata: {
                  ...a.object.metadata,
                  ownerReferences: refs.map((r) => asRcRef(r, rcUids)),
                },
              },
            }
          : a
      }
      case 'patch': {
        const patch = a.patch as { metadata?: { ownerReferences?: OwnerReference[] | null } }
        const refs = patch?.metadata?.ownerReferences
        return refs
          ? {
              ...a,
              patch: {
                ...patch,
                metadata: {
                  ...patch.metadata,
                  ownerReferences: refs.map((r) => asRcRef(r, rcUids)),
                },
              },
            }
          : a
      }
      default:
        return a
    }
  })
}
