import type { KubeObject, StatusCause } from '../apimachinery/types'
import { toStatusCause, type FieldCause } from '../apimachinery/validation'
import { validateObjectMeta } from '../apimachinery/object-meta-validation'
import type { ResourceDef } from './registry'
import { isCsr } from './certificates/csr-object'
import { apiregistrationGroup, validateApiServiceStatus } from './apiregistration/apiservice'
import { validateHorizontalPodAutoscalerStatus } from './autoscaling/validate-hpa'
import { validateFlowcontrolStatus } from './flowcontrol/validate'
import { validateDaemonSetStatus, validateDeploymentStatus, validateReplicaSetStatus, validateStatefulSetStatus } from './validation/apps-status'

type StatusRules = (obj: KubeObject, old: KubeObject) => FieldCause[]

/** The per-kind status rules, by `group/kind`; a kind not here has its status checked by decoding only. */
const statusRules = new Map<string, StatusRules>([
  ['apps/Deployment', validateDeploymentStatus],
  ['apps/ReplicaSet', validateReplicaSetStatus],
  ['apps/StatefulSet', validateStatefulSetStatus],
  ['apps/DaemonSet', validateDaemonSetStatus],
  ['autoscaling/HorizontalPodAutoscaler', validateHorizontalPodAutoscalerStatus],
  [`${apiregistrationGroup}/APIService`, validateApiServiceStatus],
  ['flowcontrol.apiserver.k8s.io/FlowSchema', validateFlowcontrolStatus],
  ['flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration', validateFlowcontrolStatus],
])

/**
 * How a write to a built-in kind's status subresource is validated, as upstream's status
 * strategies do (ValidateDeploymentStatusUpdate, ValidatePodStatusUpdate…): metadata plus what a
 * status write may change, never the spec it cannot change, so an object whose spec today's rules
 * refuse still takes its controller's status. Undefined where the whole object is validated:
 * custom resources (against their schema) and CertificateSigningRequests.
 */
export function statusWriteValidation(def: ResourceDef, old: KubeObject): ((obj: KubeObject) => StatusCause[]) | undefined {
  if (def.custom || isCsr(def)) return undefined
  const rules = statusRules.get(`${def.group}/${def.kind}`)
  return (obj) => [...validateObjectMeta(def.kind, obj.metadata, { namespaced: def.namespaced }), ...(rules?.(obj, old) ?? [])].map(toStatusCause)
}
