/**
 * The Priority plugin's checks on PriorityClass writes: a create, update, patch or apply stores
 * only an object that passes its check (one global default at most), judged on the exact object
 * stored (./guarded-write.ts); the built-in system classes cannot be deleted.
 */
import type { AdmissionBindings } from './bindings'
import { ApiError } from '../apimachinery/status'
import type { ResourceDef } from '../apis/resource-def'
import { globalDefaultRefusal, systemPriorityClasses } from '../apis/priority-class'
import type { AdmissionAttributes } from './attributes'
import { classSnapshot, forgetClasses } from './class-snapshot'
import { admissionForbidden } from './forbidden'
import type { WriteGuard } from './guarded-write'

/** Refuses the delete of a system priority class (403). */
export function admitPriorityClassDelete(
  def: ResourceDef,
  attrs: Pick<AdmissionAttributes, 'operation' | 'name'>,
): void {
  if (
    attrs.operation !== 'DELETE' ||
    !attrs.name ||
    !systemPriorityClasses.some((c) => c.metadata.name === attrs.name)
  )
    return
  throw new ApiError(
    admissionForbidden(def, attrs.name, 'this is a system priority class and cannot be deleted'),
  )
}

/** The Priority plugin's check on the PriorityClass a write stores, against the classes stored now. */
export function globalDefaultGuard(env: AdmissionBindings, def: ResourceDef): WriteGuard {
  return async (pc, old) => {
    forgetClasses(def)
    const why = globalDefaultRefusal(pc, await classSnapshot(env, def), old ? 'update' : 'create')
    return why ? admissionForbidden(def, pc.metadata.name ?? '', why) : undefined
  }
}
