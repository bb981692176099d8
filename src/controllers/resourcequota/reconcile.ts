import type { KubeObject } from '../../apimachinery/types'
import {
  addLists,
  countQuantity,
  quantityListJson,
  quantityListOf,
  type QuantityList,
} from '../../apimachinery/quantity'
import { quotaSelects } from '../../apis/quota/check'
import { trackedKinds, isTrackedName } from '../../apis/quota/tracked'
import { objectUsage } from '../../apis/quota/usage'
import type { Cache, Outcome, ResourceRef } from '../runtime/types'
import { asRecord, jsonEqual } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'

export const resourceQuotas: ResourceRef = Object.freeze({
  group: '',
  version: 'v1',
  plural: 'resourcequotas',
})

/**
 * What a namespace uses of the resources a quota limits: every tracked object the quota's scopes
 * select, counted as quota admission counts it; a tracked resource nothing uses is `0`, an
 * untracked one is left out.
 */
export function quotaUsage(quota: KubeObject, cache: Cache, now: number): QuantityList {
  const hard = Object.keys(quantityListOf(asRecord(quota.spec).hard))
  let used: QuantityList = {}
  for (const kind of trackedKinds) {
    for (const obj of cache.list(kind, quota.metadata.namespace)) {
      if (!quotaSelects(quota, kind, obj)) continue
      const usage = objectUsage(kind, obj, now)
      used = addLists(
        used,
        Object.fromEntries(hard.filter((r) => usage[r]).map((r) => [r, usage[r]!])),
      )
    }
  }
  for (const r of hard) if (!used[r] && isTrackedName(r)) used[r] = countQuantity(0)
  return used
}

/**
 * How often each quota is recounted whatever the changes, kube-controller-manager's
 * `--resource-quota-sync-period`: a count that admission's charge left high, or a recount that
 * raced an admitted write left low, is right again within it.
 */
export const quotaSyncPeriodMs = 5 * 60 * 1000

/**
 * The resource quota controller's pass over one quota (pkg/controller/resourcequota): status.hard
 * is spec.hard, status.used the namespace's usage recounted from the objects, again every sync period.
 */
export function reconcileResourceQuota(key: string, cache: Cache, now: number): Outcome {
  const { namespace, name } = splitKey(key)
  const quota = cache.get(resourceQuotas, namespace, name)
  if (!quota || quota.metadata.deletionTimestamp) return { actions: [] }
  const status = {
    hard: quantityListJson(quantityListOf(asRecord(quota.spec).hard)),
    used: quantityListJson(quotaUsage(quota, cache, now)),
  }
  if (jsonEqual(status, quota.status)) return { actions: [], requeueAfterMs: quotaSyncPeriodMs }
  return {
    actions: [{ type: 'updateStatus', resource: resourceQuotas, object: { ...quota, status } }],
    requeueAfterMs: quotaSyncPeriodMs,
  }
}
