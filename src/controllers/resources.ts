import type { ResourceRef } from './runtime/types'
import { findResource } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'

/** The resources controllers watch and act on, spelled the way the registry serves them. */

export const pods: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'pods' })
export const nodes: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'nodes' })
export const namespaces: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'namespaces',
})
export const events: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'events' })
export const persistentVolumeClaims: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'persistentvolumeclaims',
})
export const leases: ResourceRef = Object.freeze({
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
})
export const customResourceDefinitions: ResourceRef = Object.freeze({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
})
export const clusterRoles: ResourceRef = Object.freeze({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
})
export const services: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'services' })
export const endpoints: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'endpoints',
})
export const replicaSets: ResourceRef = Object.freeze({
  group: 'apps',
  version: 'v1',
  plural: 'replicasets',
})
export const deployments: ResourceRef = Object.freeze({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
})
export const statefulSets: ResourceRef = Object.freeze({
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
})
export const daemonSets: ResourceRef = Object.freeze({
  group: 'apps',
  version: 'v1',
  plural: 'daemonsets',
})
export const controllerRevisions: ResourceRef = Object.freeze({
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
})
export const replicationControllers: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'replicationcontrollers',
})
export const jobs: ResourceRef = Object.freeze({ group: 'batch', version: 'v1', plural: 'jobs' })
export const cronJobs: ResourceRef = Object.freeze({
  group: 'batch',
  version: 'v1',
  plural: 'cronjobs',
})
export const endpointSlices: ResourceRef = Object.freeze({
  group: 'discovery.k8s.io',
  version: 'v1',
  plural: 'endpointslices',
})
export const ingresses: ResourceRef = Object.freeze({
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'ingresses',
})
export const persistentVolumes: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'persistentvolumes',
})
export const storageClasses: ResourceRef = Object.freeze({
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
})
export const ingressClasses: ResourceRef = Object.freeze({
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'ingressclasses',
})
export const apiServices: ResourceRef = Object.freeze({
  group: 'apiregistration.k8s.io',
  version: 'v1',
  plural: 'apiservices',
})

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
