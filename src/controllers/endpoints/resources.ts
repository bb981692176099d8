import type { ResourceRef } from '../runtime/types'

/** The core/v1 resources the Service endpoint controllers watch and write. */

export const services: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'services' })
export const endpoints: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'endpoints' })
