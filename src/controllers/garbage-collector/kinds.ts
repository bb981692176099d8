import type { OwnerReference } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import type { ResourceRef } from '../runtime/types'

/** A watched resource with what the registry says about it. */
export interface WatchedKind {
  ref: ResourceRef
  kind: string
  namespaced: boolean
}

/** The group of an `apiVersion` such as `apps/v1` (`v1` is the core group, ''). */
export function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}

/**
 * The resources the collector watches, looked up by group and plural (keys) or by group and kind
 * (ownerReferences). An ownerReference names its owner by apiVersion and kind; the version does not
 * matter, as the same object is served under every version of its group.
 */
export class WatchedKinds {
  readonly all: readonly WatchedKind[]
  private readonly byPlural = new Map<string, WatchedKind>()
  private readonly byKind = new Map<string, WatchedKind>()

  constructor(resources: readonly ResourceRef[]) {
    const all: WatchedKind[] = []
    for (const ref of resources) {
      const def = findResource(ref.group, ref.version, ref.plural)
      if (!def) throw new Error(`unknown resource ${ref.group}/${ref.version}/${ref.plural}`)
      const kind: WatchedKind = { ref, kind: def.kind, namespaced: def.namespaced }
      all.push(kind)
      this.byPlural.set(`${ref.group}/${ref.plural}`, kind)
      this.byKind.set(`${ref.group}/${def.kind}`, kind)
    }
    this.all = all
  }

  ofResource(r: Pick<ResourceRef, 'group' | 'plural'>): WatchedKind | undefined {
    return this.byPlural.get(`${r.group}/${r.plural}`)
  }

  /** The watched kind an ownerReference points to; undefined when the owner's kind is not watched. */
  ofOwnerRef(ref: Pick<OwnerReference, 'apiVersion' | 'kind'>): WatchedKind | undefined {
    if (typeof ref.apiVersion !== 'string' || typeof ref.kind !== 'string') return undefined
    return this.byKind.get(`${groupOfApiVersion(ref.apiVersion)}/${ref.kind}`)
  }
}
