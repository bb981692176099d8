/**
 * Every kind's strategy, found by the kind's identity: its group and resource (`pods`,
 * `deployments.apps`), or its CustomResourceDefinition for a custom resource. Every built-in
 * resource is listed; `{}` is a kind with the generic strategy alone.
 */
import { qualifiedResource } from '../apimachinery/status'
import type { ResourceDef } from './resource-def'
import type { KindStrategy } from './kind-strategy'
import { admissionregistrationStrategies } from './admissionregistration/strategies'
import { apiServiceStrategy } from './apiregistration/strategy'
import { appsStrategies } from './apps/strategies'
import { horizontalPodAutoscalerStrategy } from './autoscaling/strategy'
import { batchStrategies } from './batch/strategies'
import { csrStrategy } from './certificates/strategy'
import { leaseStrategy } from './coordination/strategy'
import { coreStrategies } from './core/strategies'
import { eventsV1Strategy } from './core/events'
import { crdStrategy } from './crd/strategy'
import { customResourceStrategy } from './crd/custom-resource-strategy'
import { flowcontrolStrategies } from './flowcontrol/strategies'
import { networkingStrategies } from './networking/strategies'
import { podDisruptionBudgetStrategy } from './policy/strategy'
import { rbacStrategies } from './rbac/strategies'
import { priorityClassStrategy, runtimeClassStrategy } from './scheduling/strategies'
import { storageStrategies } from './storage/strategies'

const byGroup: Record<string, Record<string, KindStrategy>> = {
  '': coreStrategies,
  apps: appsStrategies,
  batch: batchStrategies,
  autoscaling: { horizontalpodautoscalers: horizontalPodAutoscalerStrategy },
  policy: { poddisruptionbudgets: podDisruptionBudgetStrategy },
  'coordination.k8s.io': { leases: leaseStrategy },
  'discovery.k8s.io': { endpointslices: {} },
  'networking.k8s.io': networkingStrategies,
  'events.k8s.io': { events: eventsV1Strategy },
  'scheduling.k8s.io': { priorityclasses: priorityClassStrategy },
  'node.k8s.io': { runtimeclasses: runtimeClassStrategy },
  'storage.k8s.io': storageStrategies,
  'apiextensions.k8s.io': { customresourcedefinitions: crdStrategy },
  'apiregistration.k8s.io': { apiservices: apiServiceStrategy },
  'certificates.k8s.io': { certificatesigningrequests: csrStrategy },
  'admissionregistration.k8s.io': admissionregistrationStrategies,
  'flowcontrol.apiserver.k8s.io': flowcontrolStrategies,
  'rbac.authorization.k8s.io': rbacStrategies,
}

const strategies = new Map<string, KindStrategy>(
  Object.entries(byGroup).flatMap(([group, kinds]) =>
    Object.entries(kinds).map(([resource, s]) => [qualifiedResource(group, resource), s] as const),
  ),
)

const genericStrategy: KindStrategy = Object.freeze({})

/** The built-in resources with a strategy, as `resource` or `resource.group`. */
export const kindsWithStrategies: readonly string[] = [...strategies.keys()]

/** The strategy of the kind `def` serves. */
export function strategyOf(def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>): KindStrategy {
  if (def.custom) return customResourceStrategy(def.custom)
  return strategies.get(qualifiedResource(def.group, def.plural)) ?? genericStrategy
}
