import { storedResources } from '../../apis/registry'
import { resourceDefOf } from '../resources'
import type { ResourceRef } from '../runtime/types'

export { namespaces } from '../resources'

/** Every namespaced kind the registry serves: what a namespace's deletion has to empty. */
export function namespacedResources(): ResourceRef[] {
  return storedResources
    .filter((d) => d.namespaced)
    .map((d) => Object.freeze({ group: d.group, version: d.version, plural: d.plural }))
}

/** The content kinds, keeping only namespaced ones (a cluster-scoped kind has nothing in a namespace). */
export function contentKinds(resources: readonly ResourceRef[]): ResourceRef[] {
  return resources.filter((r) => resourceDefOf(r).namespaced)
}
