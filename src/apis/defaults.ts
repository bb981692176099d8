import type { KubeObject } from '../apimachinery/types'
import type { ResourceDef } from './resource-def'
import { strategyOf } from './kind-strategies'
import { defaultPodSpec } from './pod-spec-defaults'
import { fillStatusZeroFields } from './status-zero-fields'

export { defaultPodSpec } from './pod-spec-defaults'
export { defaultService } from './core/services'

/** The status a new object starts with: kinds with a status subresource ignore a status sent on create. */
export function initialStatus(def: ResourceDef, obj: KubeObject): unknown {
  if (!def.subresources.includes('status')) return obj.status
  const own = strategyOf(def).initialStatus
  // The zero counts every status carries are added by fillStatusZeroFields.
  return own ? own(obj) : {}
}

/**
 * Field defaults applied on create and update, as upstream's defaulting for the fields we act on:
 * the zero-valued fields upstream's Go types always write, the PodSpec defaults of every pod spec
 * the object holds, then the kind's own (its strategy's `defaults`).
 */
export function applyDefaults(def: ResourceDef, obj: KubeObject): void {
  fillStatusZeroFields(def, obj)
  const kind = strategyOf(def)
  for (const podSpec of kind.podSpecs?.(obj) ?? []) defaultPodSpec(podSpec)
  kind.defaults?.(obj)
}
