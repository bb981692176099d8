import type { ResourceRef } from '../runtime/types'

/** The apps/v1 resources the workload controllers watch and write, spelled as the registry serves them. */

export const replicaSets: ResourceRef = Object.freeze({ group: 'apps', version: 'v1', plural: 'replicasets' })
export const deployments: ResourceRef = Object.freeze({ group: 'apps', version: 'v1', plural: 'deployments' })
