import type { KubeObject } from '../../apimachinery/types'
import type { LabelSelector } from '../../apimachinery/labels'
import type { Action, ResourceRef } from '../runtime/types'
import {
  claimObjects,
  newControllerRef,
  ownerRefsPatch,
  withControllerRef,
  withoutOwner,
} from '../../apimachinery/owner-refs'

export interface Claimed {
  /** the objects the owner controls after this pass, adopted ones included */
  owned: KubeObject[]
  actions: Action[]
}

/**
 * ClaimPods / ClaimControllerRevisions: adopts matching orphans and releases owned objects that no
 * longer match, each with a merge patch of its owner references. `accept` narrows what may be
 * claimed at all (a StatefulSet only claims pods named after it).
 */
export function claimByRef(
  resource: ResourceRef,
  owner: KubeObject,
  ownerApiVersion: string,
  ownerKind: string,
  selector: LabelSelector,
  candidates: readonly KubeObject[],
  accept: (o: KubeObject) => boolean = () => true,
): Claimed {
  const claim = claimObjects(owner, selector, candidates.filter(accept))
  const ref = newControllerRef(owner, ownerApiVersion, ownerKind)
  const actions: Action[] = []
  const adopted = new Map<KubeObject, KubeObject>()
  const patchOf = (o: KubeObject, next: KubeObject): Action => ({
    type: 'patch',
    resource,
    namespace: o.metadata.namespace,
    name: o.metadata.name ?? '',
    patch: ownerRefsPatch(o, next),
  })
  for (const o of claim.adopt) {
    const next = withControllerRef(o, ref)
    adopted.set(o, next)
    actions.push(patchOf(o, next))
  }
  for (const o of claim.release) actions.push(patchOf(o, withoutOwner(o, owner.metadata.uid ?? '')))
  return { owned: claim.claimed.map((o) => adopted.get(o) ?? o), actions }
}
