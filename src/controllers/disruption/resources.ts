import type { ResourceRef } from '../runtime/types'

/** policy/v1 PodDisruptionBudgets, as the registry serves them. */
export const podDisruptionBudgets: ResourceRef = Object.freeze({ group: 'policy', version: 'v1', plural: 'poddisruptionbudgets' })
export const statefulSetsRef: ResourceRef = Object.freeze({ group: 'apps', version: 'v1', plural: 'statefulsets' })
export const replicationControllersRef: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'replicationcontrollers' })
