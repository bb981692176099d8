import type { KubeObject, StatusCause } from '../../apimachinery/types'
import { toStatusCause } from '../../apimachinery/field-errors'
import { validateObjectMeta } from '../../apimachinery/object-meta-validation'
import type { ResourceDef } from '../resource-def'
import { strategyOf } from '../kind-strategies'

/** Upstream's create/update validation for the fields the server acts on: metadata first, then the kind's own rules. */
export function validateObject(def: ResourceDef, obj: KubeObject): StatusCause[] {
  const causes = [
    ...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }),
    ...(strategyOf(def).validate?.(obj) ?? []),
  ]
  return causes.map(toStatusCause)
}
