import {
  SelfSubjectAccessReview,
  SelfSubjectReview,
  SelfSubjectRulesReview,
  TokenRequest,
} from './auth'
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from './core'
import { DeleteOptions, ObjectMeta } from './meta'
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './rbac'
import { Ingress } from './networking'
import { PriorityClass } from './scheduling'
import { PodDisruptionBudget, ResourceQuota } from './policy'
import { CertificateSigningRequest } from './certificates'
import { HorizontalPodAutoscalerV1 } from './autoscaling'
import { msg, type Table } from './schema'
import { CronJob, Deployment, Job } from './workloads'

const Eviction: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('deleteOptions', () => DeleteOptions),
}

/** The message for each group and kind a protobuf body may carry, keyed `group/Kind` ('' is core). */
const byGroupKind: Record<string, Table> = {
  '/Namespace': Namespace,
  '/ConfigMap': ConfigMap,
  '/Secret': Secret,
  '/ServiceAccount': ServiceAccount,
  '/Service': Service,
  'apps/Deployment': Deployment,
  'batch/Job': Job,
  'batch/CronJob': CronJob,
  'authentication.k8s.io/TokenRequest': TokenRequest,
  'authentication.k8s.io/SelfSubjectReview': SelfSubjectReview,
  'authorization.k8s.io/SelfSubjectAccessReview': SelfSubjectAccessReview,
  'authorization.k8s.io/SelfSubjectRulesReview': SelfSubjectRulesReview,
  'policy/Eviction': Eviction,
  'rbac.authorization.k8s.io/Role': Role,
  'rbac.authorization.k8s.io/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/RoleBinding': RoleBinding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': ClusterRoleBinding,
  'networking.k8s.io/Ingress': Ingress,
  'scheduling.k8s.io/PriorityClass': PriorityClass,
  '/ResourceQuota': ResourceQuota,
  'policy/PodDisruptionBudget': PodDisruptionBudget,
  'certificates.k8s.io/CertificateSigningRequest': CertificateSigningRequest,
}

/** The message table for a body's apiVersion and kind, if it is one decoded here. */
export function messageFor(apiVersion: string, kind: string): Table | undefined {
  // DeleteOptions is registered in every group version, so any apiVersion may label it.
  if (kind === 'DeleteOptions') return DeleteOptions
  // Only autoscaling/v1's message is decoded: v2 has other field numbers.
  if (apiVersion === 'autoscaling/v1' && kind === 'HorizontalPodAutoscaler')
    return HorizontalPodAutoscalerV1
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  return byGroupKind[`${group}/${kind}`]
}
