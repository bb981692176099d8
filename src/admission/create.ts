import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import type { Target, WriteOptions } from '../apis/store-options'
import { admitPodLimits } from './limit-ranges'
import { admitQuota } from './quota'
import { storeLookups, type AdmissionLookups } from './lookups'
import { admitPodSecurityOnCreate } from './pod-security/admit'
import { kindPluginsOf } from './kind-plugins'
import type { UserInfo } from '../apimachinery/user-info'

/**
 * The admission every create passes before it is stored, whoever makes it (a client's POST, a
 * controller's create): its kind's own plugins (./kind-plugins.ts), then admitCreate's. Throws
 * ApiError with the refusal.
 */
export async function admitNewObject(
  env: AdmissionBindings,
  target: Target,
  body: KubeObject,
  opts: WriteOptions,
  lookups: AdmissionLookups = storeLookups(env),
  checked = false,
): Promise<void> {
  await kindPluginsOf(target.def)?.admit(env, body)
  await admitCreate(env, target, body, opts, lookups, checked)
}

/**
 * The admission plugins a namespaced create passes, in kube-apiserver's order: LimitRanger
 * (mutating `body` in place), PodSecurity's enforce level (a refused pod is never charged), then
 * ResourceQuota. Throws ApiError with the refusal. `checked`: the object is known to be valid
 * (quota then needs no dry run to see it as stored).
 */
export async function admitCreate(
  env: AdmissionBindings,
  target: Target,
  body: KubeObject,
  opts: WriteOptions,
  lookups: AdmissionLookups = storeLookups(env),
  checked = false,
): Promise<void> {
  if (!target.namespace || !target.def.namespaced) return
  await admitPodLimits(lookups, target.def, target.namespace, body)
  await admitPodSecurityOnCreate(env, target, body, opts.requester?.username ?? '')
  await admitQuota(env, lookups, target, body, opts, checked)
}

/**
 * A controller's create (a ReplicaSet's pod, a CronJob's Job): admitted as any create by `user`
 * (the controller's service account), reading LimitRanges and quotas through `lookups` (a batch's
 * shared reads, see batchLookups), and without a dry run (controllers build valid objects).
 */
export function admitControllerCreate(
  env: AdmissionBindings,
  target: Target,
  body: KubeObject,
  lookups: AdmissionLookups = storeLookups(env),
  user?: UserInfo,
): Promise<void> {
  return admitNewObject(env, target, body, user ? { requester: user } : {}, lookups, true)
}
