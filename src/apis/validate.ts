import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause } from '../apimachinery/validation'
import { validateWorkload } from './validation'
import { admissionGroup, isCrd, rbacGroup, type ResourceDef } from './registry'
import { validateWebhookConfiguration } from './admissionregistration/webhook-configuration'
import { isAdmissionPolicyKind, validateAdmissionPolicyObject } from './admissionregistration/admission-policy'
import { validateCrd } from './crd/validate-crd'
import { validateAgainstSchema } from './crd/validate'
import { validateRbacObject } from './rbac/validate'
import { validateObjectMeta } from '../apimachinery/object-meta-validation'
import { validateNetworkPolicy } from './network-policy'
import { validatePriorityClass } from './priority-class'
import { validateRuntimeClass } from './runtime-class'
import { validateStorageObject } from './storage/validate'
import { validatePolicyObject } from './policy/validate'
import { validateHorizontalPodAutoscaler } from './autoscaling/validate-hpa'
import { isCsr } from './certificates/csr-object'
import { validateCsr } from './certificates/csr-validation'
import { apiregistrationGroup, validateApiService } from './apiregistration/apiservice'
import { isFlowcontrol } from './flowcontrol/names'
import { validateFlowcontrolObject } from './flowcontrol/validate'

/** Upstream's create/update validation for the fields the server acts on: metadata first, then spec. */
export function validateObject(def: ResourceDef, obj: KubeObject): StatusCause[] {
  const causes = [...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }), ...specCauses(def, obj)]
  return causes.map(toStatusCause)
}

function specCauses(def: ResourceDef, obj: KubeObject) {
  if (def.custom) return def.custom.schema ? validateAgainstSchema(def.custom.schema, obj) : []
  if (isCrd(def)) return validateCrd(obj)
  if (def.group === rbacGroup) return validateRbacObject(def.kind, obj)
  if (def.group === 'networking.k8s.io' && def.kind === 'NetworkPolicy') return validateNetworkPolicy(obj)
  if (def.group === 'scheduling.k8s.io' && def.kind === 'PriorityClass') return validatePriorityClass(obj)
  if (def.group === 'node.k8s.io' && def.kind === 'RuntimeClass') return validateRuntimeClass(obj)
  if (def.group === admissionGroup) return isAdmissionPolicyKind(def.kind) ? validateAdmissionPolicyObject(def.kind, obj) : validateWebhookConfiguration(def.kind, obj)
  if (isCsr(def)) return validateCsr(obj)
  if (def.group === apiregistrationGroup && def.kind === 'APIService') return validateApiService(obj)
  if (isFlowcontrol(def)) return validateFlowcontrolObject(def.kind, obj)
  if (def.group === 'autoscaling' && def.kind === 'HorizontalPodAutoscaler') return validateHorizontalPodAutoscaler(obj)
  const policy = validatePolicyObject(def, obj)
  if (policy) return policy
  return validateStorageObject(def.group, def.kind, obj) ?? validateWorkload(def.kind, obj)
}
