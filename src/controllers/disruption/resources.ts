import type { ResourceRef } from '../runtime/types'

/** policy/v1 PodDisruptionBudgets, as the registry serves them. */
export const podDisruptionBudgets: ResourceRef = Object.freeze({
  group: 'policy',
  version: 'v1',
  plural: 'poddisruptionbudgets',
})
