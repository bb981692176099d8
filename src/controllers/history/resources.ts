import type { ResourceRef } from '../runtime/types'

export const controllerRevisions: ResourceRef = Object.freeze({ group: 'apps', version: 'v1', plural: 'controllerrevisions' })
