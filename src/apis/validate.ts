import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause, validateObjectMeta } from '../apimachinery/validation'
import { validateWorkload } from '../apimachinery/workload-validation'
import type { ResourceDef } from './registry'

/** Upstream's create/update validation for the fields the server acts on: metadata first, then spec. */
export function validateObject(def: ResourceDef, obj: KubeObject): StatusCause[] {
  const causes = [...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }), ...validateWorkload(def.kind, obj)]
  return causes.map(toStatusCause)
}
