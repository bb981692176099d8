import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import type { WatchedKind } from './kinds'

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan'

/**
 * A delete that names its propagation policy, as DeleteOptions.propagationPolicy does. The store
 * honours the policy (Foreground and Orphan are recorded as finalizers); the runner's delete action
 * is expected to pass it through, and without it a delete behaves as Background.
 */
export type DeleteAction = Extract<Action, { type: 'delete' }> & {
  propagationPolicy?: PropagationPolicy
}

/** Deletes exactly the object observed: a uid precondition keeps a same-named successor safe. */
export function deleteObject(
  kind: WatchedKind,
  object: KubeObject,
  propagationPolicy: PropagationPolicy,
): Action {
  const action: DeleteAction = {
    type: 'delete',
    resource: kind.ref,
    namespace: object.metadata.namespace,
    name: object.metadata.name ?? '',
    preconditions: { uid: object.metadata.uid },
    propagationPolicy,
  }
  return action
}

/**
 * Replaces one list of an object's metadata with a JSON merge patch. A merge patch replaces lists
 * whole, so it carries the resourceVersion it was computed from: an entry added concurrently fails
 * the patch with a conflict instead of being dropped. The rest of the object stays as stored, so
 * the cache it was computed from need not hold every field.
 */
function setMetadataList(
  kind: WatchedKind,
  object: KubeObject,
  field: 'ownerReferences' | 'finalizers',
  list: unknown[],
): Action {
  return {
    type: 'patch',
    resource: kind.ref,
    namespace: object.metadata.namespace,
    name: object.metadata.name ?? '',
    patch: {
      metadata: {
        [field]: list.length ? list : null,
        resourceVersion: object.metadata.resourceVersion,
      },
    },
  }
}

/** Replaces a dependent's ownerReferences with `remaining`. */
export function setOwnerReferences(
  kind: WatchedKind,
  object: KubeObject,
  remaining: OwnerReference[],
): Action {
  return setMetadataList(kind, object, 'ownerReferences', remaining)
}

/** Drops one finalizer. */
export function removeFinalizer(kind: WatchedKind, object: KubeObject, finalizer: string): Action {
  return setMetadataList(
    kind,
    object,
    'finalizers',
    (object.metadata.finalizers ?? []).filter((f) => f !== finalizer),
  )
}
