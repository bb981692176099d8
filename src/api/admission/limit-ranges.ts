import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import { findResource, type ResourceDef } from '../../apis/registry'
import { defaultPodResources, podLimitRangeError } from '../../apis/limit-range/admit'
import { storeFor } from '../../client/stores'
import { unwrap } from '../respond'
import { admissionForbidden } from './forbidden'

const limitRanges = findResource('', 'v1', 'limitranges')!

/** The LimitRanges of a namespace. */
async function namespaceLimitRanges(env: Env, namespace: string): Promise<KubeObject[]> {
  const listed = unwrap(await storeFor(env, limitRanges).list(limitRanges.plural, { namespace }))
  return listed.items.map((t) => JSON.parse(t) as KubeObject)
}

/**
 * LimitRanger for a pod being created: the namespace's LimitRanges default its containers'
 * requests and limits (in place), then their min, max and ratios are enforced (403 Forbidden).
 */
export async function admitPodLimits(env: Env, def: ResourceDef, namespace: string, pod: KubeObject): Promise<void> {
  if (def.group !== '' || def.plural !== 'pods') return
  const ranges = await namespaceLimitRanges(env, namespace)
  if (!ranges.length) return
  defaultPodResources(pod, ranges)
  const why = podLimitRangeError(pod, ranges)
  if (why) throw new ApiError(admissionForbidden(def, pod.metadata?.name ?? '', why))
}
