import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause, validateObjectMeta } from '../apimachinery/validation'
import { validateWorkload } from '../apimachinery/workload-validation'
import { admissionGroup, isCrd, rbacGroup, type ResourceDef } from './registry'
import { validateWebhookConfiguration } from './admissionregistration/webhook-configuration'
import { validateCrd } from './crd/validate-crd'
import { validateAgainstSchema } from './crd/schema'
import { validateRbacObject } from './rbac/validate'
import { isCsr } from './certificates/csr-object'
import { validateCsr } from './certificates/csr-validation'

/** Upstream's create/update validation for the fields the server acts on: metadata first, then spec. */
export function validateObject(def: ResourceDef, obj: KubeObject): StatusCause[] {
  const causes = [...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }), ...specCauses(def, obj)]
  return causes.map(toStatusCause)
}

function specCauses(def: ResourceDef, obj: KubeObject) {
  if (def.custom) return def.custom.schema ? validateAgainstSchema(def.custom.schema, obj) : []
  if (isCrd(def)) return validateCrd(obj)
  if (def.group === rbacGroup) return validateRbacObject(def.kind, obj)
  if (def.group === admissionGroup) return validateWebhookConfiguration(def.kind, obj)
  if (isCsr(def)) return validateCsr(obj)
  return validateWorkload(def.kind, obj)
}
