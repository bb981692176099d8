import type { KubeObject } from '../../apimachinery/types'
import { trackedKinds } from '../../apis/quota/tracked'
import { sameResource } from '../resources'
import type { Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { objectKey } from '../shared/keys'
import { reconcileResourceQuota, resourceQuotas } from './reconcile'
import { quotaWakesOn } from './wakes'

const watched: ResourceRef[] = [resourceQuotas, ...trackedKinds.filter((k) => !sameResource(k, resourceQuotas))]

/** A quota concerns itself; any other tracked object concerns every quota of its namespace. */
function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  const quotas = cache.list(resourceQuotas, object.metadata.namespace).map(objectKey)
  return sameResource(resource, resourceQuotas) ? [...new Set([objectKey(object), ...quotas])] : quotas
}

/**
 * The resource quota controller: keeps each ResourceQuota's status.hard and status.used, recounting
 * the namespace's objects whenever one of them changes. Keys are the quotas' `namespace/name`.
 */
export function resourceQuotaController(): ControllerDefinition {
  return {
    name: 'resourcequota',
    watches: watched,
    wakesOn: quotaWakesOn,
    keysFor,
    allKeys: (cache) => cache.list(resourceQuotas).map(objectKey),
    reconcile: reconcileResourceQuota,
  }
}

export { reconcileResourceQuota, quotaUsage, resourceQuotas } from './reconcile'
