import type { ResourceRef } from '../runtime/types'
import { mergeFields, type Fields } from '../runtime/fields'
import { pods, sameResource } from '../resources'

/**
 * What the pod predicates of `pods.ts` read: the phase, the conditions (Ready's status and
 * transition time), the node, and each container's restart count.
 */
export const podPredicateReads: Fields = {
  spec: { nodeName: true },
  status: { phase: true, conditions: true, containerStatuses: { restartCount: true } },
}

/**
 * A definition's `reads` for a controller that narrows only its pods: the given fields of a pod,
 * beside what the shared predicates read when `withPredicates` (the default); every other kind whole.
 */
export function podReads(
  fields: Fields,
  withPredicates = true,
): (r: ResourceRef) => Fields | undefined {
  const podFields = withPredicates ? mergeFields(podPredicateReads, fields) : fields
  return (r) => (sameResource(r, pods) ? podFields : undefined)
}
