import type { KubeObject } from '../apimachinery/types'
import { ApiError } from '../apimachinery/status'
import type { ResourceDef } from '../apis/resource-def'
import { defaultPodResources, podLimitRangeError } from '../apis/limit-range/admit'
import type { AdmissionLookups } from './lookups'
import { admissionForbidden } from './forbidden'

/**
 * LimitRanger for a pod being created: the namespace's LimitRanges default its containers'
 * requests and limits (in place), then their min, max and ratios are enforced (403 Forbidden).
 */
export async function admitPodLimits(
  lookups: AdmissionLookups,
  def: ResourceDef,
  namespace: string,
  pod: KubeObject,
): Promise<void> {
  if (def.group !== '' || def.plural !== 'pods') return
  const ranges = await lookups.limitRanges(namespace)
  if (!ranges.length) return
  defaultPodResources(pod, ranges)
  const why = podLimitRangeError(pod, ranges)
  if (why) throw new ApiError(admissionForbidden(def, pod.metadata?.name ?? '', why))
}
