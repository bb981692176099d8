import type { KubeObject, OwnerReference } from './types'
import { matchesLabels, type LabelSelector } from './labels'

/** metav1.GetControllerOf: the owner reference marked controller=true. */
export function controllerRefOf(o: KubeObject): OwnerReference | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller === true)
}

/** metav1.NewControllerRef: blockOwnerDeletion so foreground deletion of the owner waits for this object. */
export function newControllerRef(
  owner: KubeObject,
  apiVersion: string,
  kind: string,
): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** Whether the object's controller is the given owner, as resolveControllerRef compares them: by uid. */
export function isControlledBy(o: KubeObject, owner: KubeObject): boolean {
  const ref = controllerRefOf(o)
  return !!ref && !!owner.metadata.uid && ref.uid === owner.metadata.uid
}

export interface Claim {
  /** objects the owner controls after this pass (already owned and matching, or adopted) */
  claimed: KubeObject[]
  /** orphans that match and are to be adopted */
  adopt: KubeObject[]
  /** owned objects whose labels no longer match, to be released */
  release: KubeObject[]
}

/**
 * BaseControllerRefManager.ClaimObject over a list: an object controlled by someone else is ignored;
 * one the owner controls stays claimed while the selector matches and is released otherwise (not
 * while the owner is being deleted); a matching orphan that is not being deleted is adopted (not
 * while the owner is being deleted either).
 */
export function claimObjects(
  owner: KubeObject,
  selector: LabelSelector,
  candidates: readonly KubeObject[],
): Claim {
  const out: Claim = { claimed: [], adopt: [], release: [] }
  const ownerDeleting = !!owner.metadata.deletionTimestamp
  for (const o of candidates) {
    const ref = controllerRefOf(o)
    const matches = matchesLabels(selector, o.metadata.labels)
    if (ref) {
      if (ref.uid !== owner.metadata.uid) continue
      if (matches) out.claimed.push(o)
      else if (!ownerDeleting) out.release.push(o)
      continue
    }
    if (ownerDeleting || !matches || o.metadata.deletionTimestamp) continue
    if (owner.metadata.namespace && owner.metadata.namespace !== o.metadata.namespace) continue
    out.adopt.push(o)
    out.claimed.push(o)
  }
  return out
}

/** The object with the owner's controller reference added. */
export function withControllerRef(o: KubeObject, ref: OwnerReference): KubeObject {
  return {
    ...o,
    metadata: { ...o.metadata, ownerReferences: [...(o.metadata.ownerReferences ?? []), ref] },
  }
}

/** The object without any reference to the owner's uid. */
export function withoutOwner(o: KubeObject, ownerUid: string): KubeObject {
  const refs = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid)
  const metadata: KubeObject['metadata'] = { ...o.metadata, ownerReferences: refs }
  if (!refs.length) delete metadata.ownerReferences
  return { ...o, metadata }
}

/**
 * A JSON merge patch that sets ownerReferences to those of `next`. A merge patch replaces the whole
 * list, so it carries the resourceVersion it was computed from: a concurrent change to the list
 * makes it fail with a conflict instead of being overwritten (upstream's strategic patch merges by
 * uid and needs no such guard).
 */
export function ownerRefsPatch(current: KubeObject, next: KubeObject): unknown {
  const refs = next.metadata.ownerReferences
  return {
    metadata: {
      ownerReferences: refs && refs.length ? refs : null,
      resourceVersion: current.metadata.resourceVersion,
    },
  }
}
