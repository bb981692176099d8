/** A status condition (metav1.Condition, and the per-kind condition types shaped like it). */
export interface Condition {
  type: string
  status: 'True' | 'False' | 'Unknown' | string
  reason?: string
  message?: string
  lastTransitionTime?: string
  /** Deployment conditions only */
  lastUpdateTime?: string
}

/**
 * Status conditions as pkg/controller/deployment/util and replicaset's helpers keep them: one per
 * type, a changed condition moves to the end of the list, and lastTransitionTime survives as long
 * as the status itself does not change.
 */

export function getCondition<C extends Condition>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type)
}

/** SetDeploymentCondition / SetCondition: a no-op when status and reason are unchanged. */
export function setCondition<C extends Condition>(
  conditions: readonly C[] | undefined,
  condition: C,
): C[] {
  const list = conditions ?? []
  const current = getCondition(list, condition.type)
  if (current && current.status === condition.status && current.reason === condition.reason)
    return [...list]
  const next = { ...condition }
  if (current && current.status === condition.status && current.lastTransitionTime !== undefined)
    next.lastTransitionTime = current.lastTransitionTime
  return [...list.filter((c) => c.type !== condition.type), next]
}

export function removeCondition<C extends Condition>(
  conditions: readonly C[] | undefined,
  type: string,
): C[] {
  return (conditions ?? []).filter((c) => c.type !== type)
}
