import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import type { Target, WriteOptions } from '../../../durable-objects/kind-store/options'
import { admitPodLimits } from './limit-ranges'
import { admitQuota } from './quota'

/**
 * The admission plugins a create passes before it is stored, in kube-apiserver's order: LimitRanger
 * (mutating `body` in place), then ResourceQuota. Throws ApiError with the refusal.
 */
export async function admitCreate(env: Env, target: Target, body: KubeObject, opts: WriteOptions): Promise<void> {
  if (!target.namespace || !target.def.namespaced) return
  await admitPodLimits(env, target.def, target.namespace, body)
  await admitQuota(env, target, body, opts)
}
