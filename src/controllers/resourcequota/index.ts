import type { KubeObject } from '../../apimachinery/types'
import { trackedKinds } from '../../apis/quota/tracked'
import { persistentVolumeClaims, pods, sameResource, services } from '../resources'
import type { Fields } from '../runtime/fields'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { objectKey } from '../../apimachinery/object-key'
import { reconcileResourceQuota, resourceQuotas } from './reconcile'
import { quotaWakesOn } from './wakes'
import { podReads } from '../shared/pod-reads'

const watched: ResourceRef[] = [
  resourceQuotas,
  ...trackedKinds.filter((k) => !sameResource(k, resourceQuotas)),
]

/** A quota concerns itself; any other tracked object concerns every quota of its namespace. */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  const quotas = cache.list(resourceQuotas, object.metadata.namespace).map(objectKey)
  return sameResource(resource, resourceQuotas)
    ? [...new Set([objectKey(object), ...quotas])]
    : quotas
}

/** Of a pod: its phase (podCountsCompute), its compute requests and limits (podAmounts, isBestEffort) and what the quota scopes test (podInScope). */
const podFields = podReads(
  {
    spec: {
      containers: { resources: true },
      initContainers: { resources: true },
      overhead: true,
      activeDeadlineSeconds: true,
      priorityClassName: true,
      affinity: true,
    },
    status: { phase: true },
  },
  false,
)

/**
 * What the controller reads of each kind it counts (objectUsage): a Service's type and ports, a
 * claim's requested storage, a pod's fields above; the quotas themselves whole (their status is
 * replaced); of every other kind, only that it is there.
 */
function quotaReads(r: ResourceRef): Fields | undefined {
  if (sameResource(r, pods)) return podFields(r)
  if (sameResource(r, resourceQuotas)) return undefined
  if (sameResource(r, services)) return { spec: { type: true, ports: true } }
  if (sameResource(r, persistentVolumeClaims)) return { spec: { resources: true } }
  return {}
}

/**
 * The resource quota controller: keeps each ResourceQuota's status.hard and status.used, recounting
 * the namespace's objects when usage is given back or a quota's limits change (quotaWakesOn), and
 * every quota every sync period (quotaSyncPeriodMs). Keys are the quotas' `namespace/name`.
 */
export function resourceQuotaController(): ControllerDefinition {
  return {
    name: 'resourcequota',
    watches: {
      kinds: watched,
      reads: quotaReads,
      wakesOn: quotaWakesOn,
      queuesOn: quotaWakesOn,
      keysFor,
      allKeys: (cache) => cache.list(resourceQuotas).map(objectKey),
    },
    reconcile: reconcileResourceQuota,
  }
}

export { reconcileResourceQuota, quotaUsage, resourceQuotas } from './reconcile'
