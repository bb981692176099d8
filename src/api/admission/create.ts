import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import type { Target, WriteOptions } from '../../../durable-objects/kind-store/options'
import { admitPodLimits } from './limit-ranges'
import { admitQuota } from './quota'
import { cachedLookups, storeLookups, type AdmissionLookups } from './lookups'

/**
 * The admission plugins a create passes before it is stored, in kube-apiserver's order: LimitRanger
 * (mutating `body` in place), then ResourceQuota. Throws ApiError with the refusal. `checked`: the
 * object is known to be valid (quota then needs no dry run to see it as stored).
 */
export async function admitCreate(env: Env, target: Target, body: KubeObject, opts: WriteOptions, lookups: AdmissionLookups = storeLookups(env), checked = false): Promise<void> {
  if (!target.namespace || !target.def.namespaced) return
  await admitPodLimits(lookups, target.def, target.namespace, body)
  await admitQuota(env, lookups, target, body, opts, checked)
}

/** How long a controller's admission reuses a namespace's LimitRanges and quotas. */
const controllerLookupTtlMs = 1000
let controllerLookups: AdmissionLookups | undefined

/**
 * A controller's create (a ReplicaSet's pod, a CronJob's Job): admitted as any create, reading
 * LimitRanges and quotas through a short-lived cache, and without a dry run (controllers build
 * valid objects), so a burst of creates costs one store call each plus the quota charge.
 */
export function admitControllerCreate(env: Env, target: Target, body: KubeObject): Promise<void> {
  controllerLookups ??= cachedLookups(env, controllerLookupTtlMs)
  return admitCreate(env, target, body, {}, controllerLookups, true)
}
