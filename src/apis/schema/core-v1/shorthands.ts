/** The field shorthands and enums the core/v1 schema files share. */
import { CORE, META, listOf, mapOf, quantity, ref, str } from '../dsl'

export const c = (name: string, description?: string) => ref(CORE + name, description)
export const m = (name: string, description?: string) => ref(META + name, description)
export const strings = (description?: string) => listOf(str(), description)
export const quantities = (description?: string) => mapOf(quantity(), description)
export const labels = (description?: string) => mapOf(str(), description)
export const localRef = (description?: string) => c('LocalObjectReference', description)

export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const
export const CONDITION_STATUS = ['True', 'False', 'Unknown'] as const
