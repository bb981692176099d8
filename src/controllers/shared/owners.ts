import type { KubeObject } from '../../apimachinery/types'
import {
  isEverything,
  matchesLabels,
  selectorFromLabelSelector,
  type LabelSelector,
  type MetaLabelSelector,
} from '../../apimachinery/labels'
import { objectKey } from '../../apimachinery/object-key'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { Cache, ResourceRef } from '../runtime/types'

/** Where a dependent's owners are cached, and the kind their controller references name. */
export interface OwnerKind {
  resource: ResourceRef
  kind: string
}

/**
 * The owner `o`'s controller reference names, when it names one of `owners` and the cache holds
 * that very object (same uid): resolveControllerRef.
 */
export function controllerOf(
  o: KubeObject,
  cache: Cache,
  owners: OwnerKind,
): KubeObject | undefined {
  const ref = controllerRefOf(o)
  if (!ref || ref.kind !== owners.kind) return undefined
  const owner = cache.get(owners.resource, o.metadata.namespace, ref.name)
  return owner && owner.metadata.uid === ref.uid ? owner : undefined
}

/** A workload's `spec.selector`, a metav1.LabelSelector. */
export const specSelector = (owner: KubeObject): LabelSelector =>
  selectorFromLabelSelector((owner.spec as { selector?: MetaLabelSelector } | undefined)?.selector)

/**
 * The owners in `o`'s namespace whose selector (`selectorOf`, spec.selector by default) matches its
 * labels: those that could adopt it as an orphan (GetPodReplicaSets, getPodDaemonSets, …). An empty
 * selector matches nothing here, not everything, as upstream guards against one creeping in; one
 * that does not parse matches nothing either.
 */
export function ownersSelecting(
  o: KubeObject,
  cache: Cache,
  owners: ResourceRef,
  selectorOf: (owner: KubeObject) => LabelSelector = specSelector,
): KubeObject[] {
  return cache.list(owners, o.metadata.namespace ?? '').filter((owner) => {
    try {
      const selector = selectorOf(owner)
      return !isEverything(selector) && matchesLabels(selector, o.metadata.labels)
    } catch {
      return false
    }
  })
}

/**
 * The owner keys a dependent's change concerns, as upstream's event handlers map them: its
 * controller's, when the cache holds the object its reference names; for an orphan not being
 * deleted, every owner that could adopt it (`adopters`, those whose spec.selector matches by default).
 */
export function ownerKeysOf(
  o: KubeObject,
  cache: Cache,
  owners: OwnerKind,
  adopters: (o: KubeObject) => KubeObject[] = (orphan) =>
    ownersSelecting(orphan, cache, owners.resource),
): string[] {
  if (controllerRefOf(o)) {
    const owner = controllerOf(o, cache, owners)
    return owner ? [objectKey(owner)] : []
  }
  if (o.metadata.deletionTimestamp) return []
  return adopters(o).map(objectKey)
}
