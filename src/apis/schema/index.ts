/**
 * The structural schema of every served group/version, merged into one set, and the lookup from a
 * kind to the struct that describes it.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { appsV1 } from './apps-v1'
import { autoscalingV1 } from './autoscaling-v1'
import { autoscalingV1Hpa } from './autoscaling-v1-hpa'
import { autoscalingV2 } from './autoscaling-v2'
import { batchV1 } from './batch-v1'
import { coordinationV1 } from './coordination-v1'
import { coreV1 } from './core-v1'
import { discoveryV1 } from './discovery-v1'
import { metaV1 } from './meta-v1'
import { networkingV1 } from './networking-v1'
import { networkingV1Policy } from './networking-v1-policy'
import { eventsV1 } from './events-v1'
import { admissionregistrationV1 } from './admissionregistration-v1'
import { admissionregistrationV1Policy } from './admissionregistration-v1-policy'
import { policyV1 } from './policy-v1'
import { rbacV1 } from './rbac-v1'
import { nodeV1, schedulingV1 } from './scheduling-node-v1'
import { storageV1 } from './storage-v1'
import { certificatesV1 } from './certificates-v1'
import { apiregistrationV1 } from './apiregistration-v1'
import { flowcontrolV1 } from './flowcontrol-v1'

export const schemas: SchemaSet = {
  ...metaV1,
  ...coreV1,
  ...appsV1,
  ...batchV1,
  ...coordinationV1,
  ...discoveryV1,
  ...autoscalingV1,
  ...autoscalingV1Hpa,
  ...autoscalingV2,
  ...policyV1,
  ...rbacV1,
  ...networkingV1,
  ...networkingV1Policy,
  ...eventsV1,
  ...schedulingV1,
  ...nodeV1,
  ...storageV1,
  ...admissionregistrationV1,
  ...admissionregistrationV1Policy,
  ...certificatesV1,
  ...apiregistrationV1,
  ...flowcontrolV1,
}

/**
 * The package a group's types live in, as it appears in upstream definition names: the core group
 * is "core", "*.k8s.io" groups keep their first label (rbac.authorization.k8s.io is "rbac"),
 * meta.k8s.io lives in apimachinery.
 */
function definitionPrefix(group: string, version: string): string {
  if (group === '') return `io.k8s.api.core.${version}.`
  if (group === 'meta.k8s.io') return `io.k8s.apimachinery.pkg.apis.meta.${version}.`
  if (group === 'apiregistration.k8s.io')
    return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${version}.`
  const pkg = group.endsWith('.k8s.io') ? group.slice(0, group.indexOf('.')) : group
  return `io.k8s.api.${pkg}.${version}.`
}

/**
 * The struct name of a top-level kind, e.g. ('apps', 'v1', 'Deployment') →
 * 'io.k8s.api.apps.v1.Deployment', ('', 'v1', 'Pod') → 'io.k8s.api.core.v1.Pod'; undefined for
 * kinds without a schema and for structs that are not kinds (e.g. 'PodSpec').
 */
export function kindStruct(group: string, version: string, kind: string): string | undefined {
  const name = definitionPrefix(group, version) + kind
  const def = Object.hasOwn(schemas, name) ? schemas[name] : undefined
  if (def === undefined || !('kind' in def.fields) || !('apiVersion' in def.fields))
    return undefined
  return name
}
