import type { ResourceRef } from './runtime/types'
import { findResource, type ResourceDef } from '../apis/registry'

/** The resources controllers watch and act on, spelled the way the registry serves them. */

export const pods: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'pods' })
export const nodes: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'nodes' })
export const namespaces: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'namespaces' })
export const events: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'events' })
export const persistentVolumeClaims: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'persistentvolumeclaims' })
export const leases: ResourceRef = Object.freeze({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases' })
export const customResourceDefinitions: ResourceRef = Object.freeze({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' })

/** Compares by value: the runner may hand back copies of the refs a definition declared. */
export function sameResource(a: ResourceRef, b: ResourceRef): boolean {
  return a.group === b.group && a.version === b.version && a.plural === b.plural
}

/** The registry's definition of a resource a controller names; a name the registry lacks is a programming error. */
export function resourceDefOf(r: ResourceRef): ResourceDef {
  const def = findResource(r.group, r.version, r.plural)
  if (!def) throw new Error(`unknown resource ${r.group}/${r.version}/${r.plural}`)
  return def
}
