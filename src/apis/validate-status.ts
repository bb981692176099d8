import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause } from '../apimachinery/field-errors'
import { validateObjectMeta } from '../apimachinery/object-meta-validation'
import type { ResourceDef } from './resource-def'
import { strategyOf } from './kind-strategies'
import { subresourceOf } from './subresources'

/**
 * How a write to a built-in kind's status subresource is validated, as upstream's status
 * strategies do (ValidateDeploymentStatusUpdate, ValidatePodStatusUpdate…): metadata plus what a
 * status write may change, never the spec it cannot change, so an object whose spec today's rules
 * refuse still takes its controller's status. Undefined where the whole object is validated:
 * custom resources (against their schema) and CertificateSigningRequests.
 */
export function statusWriteValidation(
  def: ResourceDef,
  old: KubeObject,
): ((obj: KubeObject) => StatusCause[]) | undefined {
  if (!subresourceOf(def, 'status')?.validatesStatus) return undefined
  const rules = strategyOf(def).validateStatus
  return (obj) =>
    [
      ...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }),
      ...(rules?.(obj, old) ?? []),
    ].map(toStatusCause)
}
